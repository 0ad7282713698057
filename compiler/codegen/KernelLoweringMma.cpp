// Matrix products. bf16/f16 -> f32 products on sm_80+ run on Tensor Cores (mma.sync.m16n8k16
// with ldmatrix-fed operands); every other combination takes the FMA path, where both operands
// go to shared memory and each thread accumulates its canonical-layout output registers over K.

#include "compiler/codegen/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tile::codegen {

//===----------------------------------------------------------------------===//
// Tensor Core path
//===----------------------------------------------------------------------===//

// The shapes mma.sync.m16n8k16 tiles exactly (shapes are powers of two, so M >= 16 suffices).
static bool usesTensorCores(mlir::tile::MmaOp op, const GpuTarget &target) {
  auto aType = op.getA().getType(), bType = op.getB().getType();
  Type ea = aType.getElementType(), eacc = op.getAcc().getType().getElementType();
  int64_t rank = aType.getRank();
  return target.hasMmaM16N8K16() && (ea.isBF16() || ea.isF16()) && eacc.isF32() &&
         aType.getDimSize(rank - 2) % 16 == 0 && aType.getDimSize(rank - 1) % 16 == 0 &&
         bType.getDimSize(rank - 1) % 8 == 0;
}

// The operands and the accumulator arrive in the canonical layout, so all three go to shared
// memory: rows padded by 8 elements, which puts ldmatrix's eight row addresses (and the
// accumulator fragments' rows) in distinct banks. Warps then own strips of 16x8 output tiles:
// a warp loads its accumulator fragments, runs the K loop (one ldmatrix.x4 for A, one
// ldmatrix.x4.trans per two n-tiles of B, one mma.sync per n-tile), and writes the fragments
// back in place; finally every thread reads its canonical elements.
LogicalResult KernelLowering::lowerMmaTensorCore(mlir::tile::MmaOp op) {
  MLIRContext *ctx = b_.getContext();
  auto aType = op.getA().getType(), bType = op.getB().getType(), accType = op.getAcc().getType();
  int64_t rank = aType.getRank();
  int64_t batch = rank == 3 ? aType.getDimSize(0) : 1;
  int64_t m = aType.getDimSize(rank - 2), k = aType.getDimSize(rank - 1), n = bType.getDimSize(rank - 1);
  Type ea = aType.getElementType(), f32 = b_.getF32Type(), i32t = b_.getI32Type();
  constexpr int64_t kRowPad = 8;
  int64_t aPitch = k + kRowPad, bPitch = n + kRowPad, cPitch = n + kRowPad;
  int64_t bOffset = alignTo16(batch * m * aPitch * 2);
  int64_t cOffset = bOffset + alignTo16(batch * k * bPitch * 2);
  barrier();
  writeShared(tiles_[op.getA()], layoutOf(aType), ea, 0, aPitch);
  writeShared(tiles_[op.getB()], layoutOf(bType), ea, bOffset, bPitch);
  writeShared(tiles_[op.getAcc()], layoutOf(accType), f32, cOffset, cPitch);
  barrier();

  // Warps over (batch, m-tile, n-strip); a warp's n-tiles are adjacent so B pairs share loads.
  int64_t warps = numThreads_ / 32, tilesM = m / 16, tilesN = n / 8;
  int64_t wm = std::min(warps, tilesM);
  int64_t wn = std::min(warps / wm, tilesN);
  int64_t wb = std::min(warps / (wm * wn), batch);
  int64_t nPerWarp = tilesN / wn;
  auto bin = [&](auto opTag, Value x, int64_t c) { return decltype(opTag)::create(b_, loc_, x, i32(c)).getResult(); };
  Value lane = bin(arith::AndIOp{}, tid_, 31), warp = bin(arith::ShRUIOp{}, tid_, 5);
  Value group = bin(arith::ShRUIOp{}, lane, 2), quad = bin(arith::AndIOp{}, lane, 3);
  // ldmatrix: lanes 8i..8i+7 address the rows of matrix i; matrices 1 and 3 are 8 rows down,
  // 2 and 3 are 8 columns right.
  Value ldRow = arith::AddIOp::create(b_, loc_, bin(arith::AndIOp{}, lane, 7),
                                      bin(arith::MulIOp{}, bin(arith::AndIOp{}, bin(arith::ShRUIOp{}, lane, 3), 1), 8));
  Value ldCol = bin(arith::MulIOp{}, bin(arith::ShRUIOp{}, lane, 4), 8);
  Value warpM = bin(arith::RemUIOp{}, warp, wm);
  Value warpN = bin(arith::RemUIOp{}, bin(arith::DivUIOp{}, warp, wm), wn);
  Value warpB = bin(arith::DivUIOp{}, warp, wm * wn);
  Value active = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, warp, i32(wm * wn * wb));

  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b_, loc_, x, y).getResult(); };
  auto mul = [&](Value x, int64_t c) { return bin(arith::MulIOp{}, x, c); };
  auto smemPtr = [&](Type type, int64_t byteOffset, Value index) {
    Value base = sharedBase();
    Value at = add(index, i32(byteOffset / byteSize(type)));
    return LLVM::GEPOp::create(b_, loc_, base.getType(), type, base, ValueRange{at}).getResult();
  };
  auto i32x = [&](int count) {
    return LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(count, i32t));
  };
  auto ldmatrix = [&](Value ptr, int count, bool transpose) {
    Value s = NVVM::LdMatrixOp::create(
        b_, loc_, i32x(count), ptr, b_.getI32IntegerAttr(count),
        NVVM::MMALayoutAttr::get(ctx, transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row),
        NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8),
        NVVM::LdStMatrixEltTypeAttr::get(ctx, NVVM::LdStMatrixEltType::B16));
    SmallVector<Value> regs;
    for (int i = 0; i < count; ++i) {
      Value r = LLVM::ExtractValueOp::create(b_, loc_, s, i);
      // f16 operands are <2 x half> registers; bf16 ones stay i32.
      if (ea.isF16())
        r = LLVM::BitcastOp::create(b_, loc_, VectorType::get({2}, b_.getF16Type()), r);
      regs.push_back(r);
    }
    return regs;
  };
  NVVM::MMATypes ptxType = ea.isF16() ? NVVM::MMATypes::f16 : NVVM::MMATypes::bf16;
  auto accStruct = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(4, f32));

  ifThen(active, [&] {
    auto batchLoop = scf::ForOp::create(b_, loc_, warpB, i32(batch), i32(wb));
    OpBuilder::InsertionGuard outer(b_);
    b_.setInsertionPointToStart(batchLoop.getBody());
    Value bi = batchLoop.getInductionVar();
    auto mLoop = scf::ForOp::create(b_, loc_, warpM, i32(tilesM), i32(wm));
    b_.setInsertionPointToStart(mLoop.getBody());
    Value m0 = mul(mLoop.getInductionVar(), 16);
    Value n0 = mul(warpN, nPerWarp * 8);
    Value aRowBase = add(mul(bi, m), m0);  // row of A (and of C) in the batch-stacked layout
    Value bRowBase = mul(bi, k);
    // Accumulator fragment j: (row, col) and (row + 8, col) pairs, col = n0 + 8j + 2 * quad.
    SmallVector<Value> cIndex;
    for (int64_t j = 0; j < nPerWarp; ++j) {
      Value col = add(add(n0, i32(8 * j)), mul(quad, 2));
      Value row = add(aRowBase, group);
      Value at = add(mul(row, cPitch), col);
      Value at8 = add(at, i32(8 * cPitch));
      cIndex.append({at, add(at, i32(1)), at8, add(at8, i32(1))});
    }
    SmallVector<Value> acc;
    for (Value at : cIndex)
      acc.push_back(LLVM::LoadOp::create(b_, loc_, f32, smemPtr(f32, cOffset, at)));
    auto kLoop = scf::ForOp::create(b_, loc_, i32(0), i32(k), i32(16), acc);
    {
      OpBuilder::InsertionGuard inner(b_);
      b_.setInsertionPointToStart(kLoop.getBody());
      Value k0 = kLoop.getInductionVar();
      Value aAt = add(mul(add(aRowBase, ldRow), aPitch), add(k0, ldCol));
      SmallVector<Value> aRegs = ldmatrix(smemPtr(ea, 0, aAt), 4, false);
      SmallVector<Value> next;
      for (int64_t j = 0; j < nPerWarp; j += 2) {
        int count = j + 1 < nPerWarp ? 4 : 2;
        Value bAt = add(mul(add(add(bRowBase, k0), ldRow), bPitch), add(add(n0, i32(8 * j)), ldCol));
        SmallVector<Value> bRegs = ldmatrix(smemPtr(ea, bOffset, bAt), count, true);
        for (int64_t jj = j; jj < j + count / 2; ++jj) {
          ValueRange c = kLoop.getRegionIterArgs().slice(4 * jj, 4);
          ArrayRef<Value> bPair = ArrayRef<Value>(bRegs).slice(2 * (jj - j), 2);
          Value d = NVVM::MmaOp::create(b_, loc_, accStruct, aRegs, bPair, c, ArrayRef<int64_t>{16, 8, 16},
                                        std::nullopt, std::nullopt,
                                        std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
                                        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
          for (int i = 0; i < 4; ++i)
            next.push_back(LLVM::ExtractValueOp::create(b_, loc_, d, i));
        }
      }
      scf::YieldOp::create(b_, loc_, next);
    }
    for (auto [at, v] : llvm::zip(cIndex, kLoop.getResults()))
      LLVM::StoreOp::create(b_, loc_, v, smemPtr(f32, cOffset, at));
  });
  barrier();

  TileLayout out = layoutOf(accType);
  Elements values;
  for (int64_t r = 0; r < out.perThread; ++r) {
    Value e = linearIndex(out, r);
    Value at = add(mul(bin(arith::DivUIOp{}, e, n), cPitch), bin(arith::RemUIOp{}, e, n));
    values.push_back(readShared(f32, cOffset, at));
  }
  tiles_[op] = values;
  return success();
}

// Converts an operand element to the accumulator type.
static Value toAccType(OpBuilder &b, Location loc, Value v, Type acc) {
  Type t = v.getType();
  if (t == acc)
    return v;
  if (isa<FloatType>(acc))
    return isa<FloatType>(t) ? Value(arith::ExtFOp::create(b, loc, acc, v)) : Value(arith::SIToFPOp::create(b, loc, acc, v));
  return arith::ExtSIOp::create(b, loc, acc, v);
}

LogicalResult KernelLowering::lowerMma(mlir::tile::MmaOp op) {
  if (usesTensorCores(op, target_))
    return lowerMmaTensorCore(op);
  auto aType = op.getA().getType(), bType = op.getB().getType();
  auto accType = op.getAcc().getType();
  TileLayout la = layoutOf(aType), lb = layoutOf(bType), out = layoutOf(accType);
  Type ea = aType.getElementType(), eacc = accType.getElementType();
  int64_t rank = aType.getRank(), k = aType.getDimSize(rank - 1);
  int64_t bOffset = alignTo16(la.numElements * byteSize(ea));
  barrier();
  writeShared(tiles_[op.getA()], la, ea, 0);
  writeShared(tiles_[op.getB()], lb, ea, bOffset);
  barrier();
  // One loop over K carries every output register of this thread.
  SmallVector<SmallVector<Value>> outIdx;
  for (int64_t r = 0; r < out.perThread; ++r)
    outIdx.push_back(delinearize(linearIndex(out, r), out.shape));
  auto loop = scf::ForOp::create(b_, loc_, i32(0), i32(k), i32(1), tiles_[op.getAcc()]);
  {
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(loop.getBody());
    Value kk = loop.getInductionVar();
    SmallVector<Value> next;
    for (int64_t r = 0; r < out.perThread; ++r) {
      SmallVector<Value> ai = outIdx[r], bi = outIdx[r];
      ai[rank - 1] = kk;       // a[..., m, k]
      bi[rank - 2] = kk;       // b[..., k, n]
      Value av = toAccType(b_, loc_, readShared(ea, 0, linearize(ai, la.shape)), eacc);
      Value bv = toAccType(b_, loc_, readShared(ea, bOffset, linearize(bi, lb.shape)), eacc);
      Value acc = loop.getRegionIterArgs()[r];
      next.push_back(isa<FloatType>(eacc) ? Value(math::FmaOp::create(b_, loc_, av, bv, acc))
                                          : Value(arith::AddIOp::create(b_, loc_, acc, arith::MulIOp::create(b_, loc_, av, bv))));
    }
    scf::YieldOp::create(b_, loc_, next);
  }
  tiles_[op] = Elements(loop.getResults().begin(), loop.getResults().end());
  return success();
}

}  // namespace tile::codegen
