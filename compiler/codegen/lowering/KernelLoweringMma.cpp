// Matrix products. bf16/f16 -> f32 products on sm_80+ run on Tensor Cores with
// mma.sync.m16n8k16, tf32 -> f32 with mma.sync.m16n8k8, operands fed by ldmatrix (A, and B
// for 16-bit types) when the shapes fit (usesTensorCores, MmaLayout.h); every other
// combination takes the FMA path, where both operands go to shared memory and each thread
// accumulates its canonical-layout output registers over K.

#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/MmaLayout.h"
#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#define DEBUG_TYPE "tile-lower-to-llvm"

using namespace mlir;

namespace tile::codegen {

//===----------------------------------------------------------------------===//
// Tensor Core path
//===----------------------------------------------------------------------===//

// Where register r of this thread sits in a #tile.mma tile (see TileAttrs.td): fragment
// element r % 4 of n-tile (r / 4) % nPerWarp of the thread's (r / 4 / nPerWarp)-th
// (batch, m-tile) pair, m fastest.
namespace {
struct MmaRegister {
  int64_t m, n, wb, wm, nPerWarp, mPerWarp, i, j, pair;
  MmaRegister(const TileLayout &layout, int64_t r) {
    auto [mDim, nDim] = layout.mmaMatrixDims();
    m = layout.shape[mDim], n = layout.shape[nDim];
    wb = layout.mmaWarps[0], wm = layout.mmaWarps[1];
    nPerWarp = n / 8 / layout.mmaWarps[2], mPerWarp = m / 16 / wm;
    i = r % 4, j = (r / 4) % nPerWarp, pair = r / (4 * nPerWarp);
  }
};
} // namespace

std::pair<Value, Value> KernelLowering::mmaPairBatchAndRow(const TileLayout &layout, int64_t m, int64_t pair,
                                                           bool lower, const MmaThread &t) {
  int64_t wb = layout.mmaWarps[0], wm = layout.mmaWarps[1], mPerWarp = m / 16 / wm;
  int64_t mLocal = pair % mPerWarp, bLocal = pair / mPerWarp;
  Value batch = arith::AddIOp::create(b_, loc_, t.warpB, i32(bLocal * wb));
  Value mTile = arith::AddIOp::create(b_, loc_, t.warpM, i32(mLocal * wm));
  Value row = arith::AddIOp::create(b_, loc_, arith::MulIOp::create(b_, loc_, mTile, i32(16)),
                                    arith::AddIOp::create(b_, loc_, t.group, i32(lower ? 8 : 0)));
  return {batch, row};
}

std::pair<Value, Value> KernelLowering::mmaBatchAndRow(const TileLayout &layout, int64_t r, const MmaThread &t) {
  MmaRegister g(layout, r);
  return mmaPairBatchAndRow(layout, g.m, g.pair, g.i >= 2, t);
}

// Register r holds the upper (even r) or lower row of the thread's (r / 2)-th pair.
Value KernelLowering::mmaRowsLinearIndex(const TileLayout &layout, int64_t r) {
  int64_t m = layout.shape[layout.shape.size() - 2];
  MmaThread t = mmaThread(layout.mmaWarps[1], layout.mmaWarps[2]);
  auto [batch, row] = mmaPairBatchAndRow(layout, m, r / 2, r % 2, t);
  return arith::AddIOp::create(b_, loc_, arith::MulIOp::create(b_, loc_, batch, i32(m)), row);
}

Value KernelLowering::mmaColumn(const TileLayout &layout, int64_t r, const MmaThread &t) {
  MmaRegister g(layout, r);
  return arith::AddIOp::create(
      b_, loc_,
      arith::MulIOp::create(
          b_, loc_,
          arith::AddIOp::create(b_, loc_, arith::MulIOp::create(b_, loc_, t.warpN, i32(g.nPerWarp)), i32(g.j)), i32(8)),
      arith::AddIOp::create(b_, loc_, arith::MulIOp::create(b_, loc_, t.quad, i32(2)), i32(g.i & 1)));
}

Value KernelLowering::mmaLinearIndex(const TileLayout &layout, int64_t r) {
  MmaRegister g(layout, r);
  MmaThread t = mmaThread(g.wm, layout.mmaWarps[2]);
  auto [batch, row] = mmaBatchAndRow(layout, r, t);
  Value col = mmaColumn(layout, r, t);
  Value rowAll = arith::AddIOp::create(b_, loc_, arith::MulIOp::create(b_, loc_, batch, i32(g.m)), row);
  return arith::AddIOp::create(b_, loc_, arith::MulIOp::create(b_, loc_, rowAll, i32(g.n)), col);
}

KernelLowering::LdmatrixLanes KernelLowering::ldmatrixLanes(Value lane, int64_t elementBytes) {
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b_, loc_, x, y).getResult(); };
  auto mul = [&](Value x, int64_t c) { return arith::MulIOp::create(b_, loc_, x, i32(c)).getResult(); };
  auto and_ = [&](Value x, int64_t c) { return arith::AndIOp::create(b_, loc_, x, i32(c)).getResult(); };
  auto shr = [&](Value x, int64_t c) { return arith::ShRUIOp::create(b_, loc_, x, i32(c)).getResult(); };
  // Lanes 8i..8i+7 address the rows of matrix i; matrices 1 and 3 are 8 rows down, 2 and 3
  // are 8 columns (16 bytes) right. For a transposed operand the stored rows run along the
  // other dimension: matrices 2 and 3 are 8 stored rows down, 1 and 3 are 8 columns right.
  Value row8 = and_(lane, 7), bit3 = and_(shr(lane, 3), 1), bit4 = shr(lane, 4);
  return {add(row8, mul(bit3, 8)), mul(bit4, 16 / elementBytes), add(row8, mul(bit4, 8)), mul(bit3, 8)};
}

SmallVector<Value> KernelLowering::ldmatrixRegs(Value ptr, int count, bool transpose) {
  MLIRContext *ctx = b_.getContext();
  auto regsType = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(count, b_.getI32Type()));
  Value s = NVVM::LdMatrixOp::create(
      b_, loc_, regsType, ptr, b_.getI32IntegerAttr(count),
      NVVM::MMALayoutAttr::get(ctx, transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row),
      NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8), NVVM::LdStMatrixEltTypeAttr::get(ctx, NVVM::LdStMatrixEltType::B16));
  SmallVector<Value> regs;
  for (int i = 0; i < count; ++i)
    regs.push_back(LLVM::ExtractValueOp::create(b_, loc_, s, i));
  return regs;
}

KernelLowering::MmaThread KernelLowering::mmaThread(int64_t wm, int64_t wn) {
  auto bin = [&](auto opTag, Value x, int64_t c) { return decltype(opTag)::create(b_, loc_, x, i32(c)).getResult(); };
  MmaThread t;
  t.lane = bin(arith::AndIOp{}, tid_, 31);
  t.warp = bin(arith::ShRUIOp{}, tid_, 5);
  t.group = bin(arith::ShRUIOp{}, t.lane, 2);
  t.quad = bin(arith::AndIOp{}, t.lane, 3);
  t.warpM = bin(arith::RemUIOp{}, t.warp, wm);
  t.warpN = bin(arith::RemUIOp{}, bin(arith::DivUIOp{}, t.warp, wm), wn);
  t.warpB = bin(arith::DivUIOp{}, t.warp, wm * wn);
  return t;
}

// A and B go to shared memory (rows padded by 8 elements, which puts ldmatrix's eight row
// addresses in distinct banks). The warps split the output into 16x8 tiles (MmaWarpGrid); a
// warp runs the K loop per (batch, m-tile) it owns: one ldmatrix.x4 for A, one
// ldmatrix.x4.trans per two n-tiles of B, one mma.sync per n-tile. The accumulator fragments
// come from registers when the accumulator has the #tile.mma layout (the layout passes arrange
// that for products whose warps all have work); otherwise from shared memory, where the
// canonical-layout accumulator is written first and the result read back.
LogicalResult KernelLowering::lowerMmaTensorCore(mlir::tile::MmaOp op) {
  MLIRContext *ctx = b_.getContext();
  auto aType = op.getA().getType(), bType = op.getB().getType(), accType = op.getAcc().getType();
  bool inRegisters = layoutOf(accType).isMma();
  if (inRegisters != layoutOf(op.getType()).isMma())
    return op.emitError("internal error: the accumulator and result of a Tensor Core product disagree on the layout");
  std::string notWgmma;
  if (runsAsWgmma(op, &notWgmma))
    return lowerMmaWgmma(op);
  if (recordedMmaInstruction(op) == mlir::tile::MmaInstruction::wgmma)
    return op.emitError("internal error: tile.mma_instruction = wgmma cannot be honoured: ") << notWgmma;
  int64_t rank = aType.getRank();
  int64_t batch = rank == 3 ? aType.getDimSize(0) : 1;
  int64_t m = aType.getDimSize(rank - 2), k = aType.getDimSize(rank - 1), n = bType.getDimSize(rank - 1);
  Type ea = aType.getElementType(), f32 = b_.getF32Type(), i32t = b_.getI32Type();
  bool tf32 = ea.isTF32();
  int64_t kStep = mmaInstructionK(ea), esize = elementBytes(ea);
  // An operand that is a transpose (permuteFoldsIntoMma) is its input, stored in the input's
  // orientation, and read with the opposite ldmatrix: A stored K x M is read with .trans, B
  // stored N x K without it. No transpose goes through registers.
  auto foldedInput = [&](Value operand) -> Value {
    mlir::tile::PermuteOp p = lastTwoSwapped(operand);
    return p && permuteFoldsIntoMma(p) ? p.getInput() : Value();
  };
  Value aInput = foldedInput(op.getA()), bInput = foldedInput(op.getB());
  // An A operand in the #tile.mma layout (computed in registers, tile-assign-layouts): its
  // fragments are its registers, nothing goes through shared memory.
  bool aRegisters = layoutOf(aType).isMma();
  // 16-bit operands copied into pipeline stages (tile-pipeline-loops, StageLayout.h) are read
  // there in place: each ldmatrix row address is one 16-byte row of an 8x8 core matrix, and
  // the swizzle puts the 8 rows of a core matrix in distinct bank groups. Others go through the
  // scratch.
  std::optional<StageOperand> aStage, bStage;
  if (!tf32 && rank == 2) {
    if (!aRegisters)
      aStage = stageOperand(op.getA(), /*isB=*/false);
    bStage = stageOperand(op.getB(), /*isB=*/true);
  }
  // Rows of A padded by 16 bytes: ldmatrix's eight 16-byte row reads then hit distinct banks.
  // B and C padded by 8 elements: the fragment accesses of a warp (8 rows x 4 columns, or for
  // tf32 B 4 rows x 8 columns) then spread over the banks. Transposed operands are stored
  // with their rows (M for A, K for B) padded by 8 elements, for the same reason.
  int64_t aPitch = aInput ? m + 8 : k + 16 / esize, bPitch = bInput ? k + 8 : n + 8, cPitch = n + 8;
  int64_t bOffset = alignTo16(batch * (aInput ? k : m) * aPitch * esize);
  int64_t cOffset = bOffset + alignTo16(batch * (bInput ? n : k) * bPitch * esize);
  bool staged = (!aStage && !aRegisters) || !bStage || !inRegisters;
  if (staged) {
    barrier();
    if (!aStage && !aRegisters)
      writeShared(tiles_[aInput ? aInput : op.getA()], layoutOf(aInput ? aInput.getType() : aType), ea, 0, aPitch);
    if (!bStage)
      writeShared(tiles_[bInput ? bInput : op.getB()], layoutOf(bInput ? bInput.getType() : bType), ea, bOffset,
                  bPitch);
    if (!inRegisters)
      writeShared(tiles_[op.getAcc()], layoutOf(accType), f32, cOffset, cPitch);
    barrier();
  }
  // Element (row, col) of an in-place operand's stage, the tile `cols` wide as loaded.
  auto stageElement = [&](StageOperand operand, Value row, Value col) {
    auto type = operand.load.getType();
    int64_t cols = type.getShape().back();
    return stagePointer(ea, stageByteOffset(operand.load),
                        stageOffset(row, col, type.getNumElements() / cols, cols, esize));
  };
  MmaWarpGrid grid = MmaWarpGrid::choose(batch, m, n, numThreads_);
  if (inRegisters) {
    TileLayout acc = layoutOf(accType);
    grid = {acc.mmaWarps[0], acc.mmaWarps[1], acc.mmaWarps[2]};
  }
  if (aRegisters && (!inRegisters || grid.warpsN != 1 || layoutOf(aType).mmaWarps[1] != grid.warpsM))
    return op.emitError("an A operand in registers needs the accumulator in registers with the same warps along M "
                        "and one along N");
  int64_t wb = grid.warpsB, wm = grid.warpsM, wn = grid.warpsN;
  int64_t nPerWarp = n / 8 / wn, mPerWarp = m / 16 / wm, bPerWarp = batch / wb;
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc() << ": Tensor Cores (mma.sync.m16n8k"
                          << kStep << "), accumulator "
                          << (inRegisters ? "in registers (#tile.mma)" : "through shared memory") << ", warp grid "
                          << wb << "x" << wm << "x" << wn << ", " << grid.numWarps() << " of " << numThreads_ / 32
                          << " warps with work (not wgmma: " << notWgmma << ")" << (aInput ? ", A transposed" : "")
                          << (bInput ? ", B transposed" : "") << (aStage ? ", A read in place" : "")
                          << (aRegisters ? ", A from registers" : "") << (bStage ? ", B read in place" : "") << "\n");
  MmaThread t = mmaThread(wm, wn);
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b_, loc_, x, y).getResult(); };
  auto mul = [&](Value x, int64_t c) { return arith::MulIOp::create(b_, loc_, x, i32(c)).getResult(); };
  auto and_ = [&](Value x, int64_t c) { return arith::AndIOp::create(b_, loc_, x, i32(c)).getResult(); };
  auto shr = [&](Value x, int64_t c) { return arith::ShRUIOp::create(b_, loc_, x, i32(c)).getResult(); };
  auto [ldRow, ldCol, ldRowT, ldColT] = ldmatrixLanes(t.lane, esize);
  auto ldmatrix = [&](Value ptr, int count, bool transpose) {
    SmallVector<Value> regs = ldmatrixRegs(ptr, count, transpose);
    // f16 operands are <2 x half> registers; bf16 ones stay i32.
    if (ea.isF16())
      for (Value &r : regs)
        r = LLVM::BitcastOp::create(b_, loc_, VectorType::get({2}, b_.getF16Type()), r);
    return regs;
  };
  NVVM::MMATypes ptxType = ea.isF16() ? NVVM::MMATypes::f16 : tf32 ? NVVM::MMATypes::tf32 : NVVM::MMATypes::bf16;
  // tf32 B fragments: b0 = B[k0 + quad][n], b1 = B[k0 + quad + 4][n], n = n-tile + group. (ldmatrix
  // cannot transpose 32-bit elements.)
  auto tf32BFragment = [&](Value bRowBase, Value k0, Value nTile) {
    Value row = add(add(bRowBase, k0), t.quad);
    Value at = add(mul(row, bPitch), add(nTile, t.group));
    Value b0 = LLVM::LoadOp::create(b_, loc_, i32t, sharedPointer(ea, bOffset, at));
    Value b1 = LLVM::LoadOp::create(b_, loc_, i32t, sharedPointer(ea, bOffset, add(at, i32(4 * bPitch))));
    return SmallVector<Value>{b0, b1};
  };
  auto accStruct = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(4, f32));
  const Elements &accIn = tiles_[op.getAcc()];
  Elements result(inRegisters ? accIn.size() : 0);

  // One (batch, m-tile) of this warp: its n-strip of accumulators through the K loop.
  auto tileRow = [&](int64_t bLocal, int64_t mLocal) {
    Value bi = add(t.warpB, i32(bLocal * wb));
    Value m0 = mul(add(t.warpM, i32(mLocal * wm)), 16);
    Value n0 = mul(t.warpN, nPerWarp * 8);
    Value aRowBase = add(mul(bi, m), m0); // row of A (and of C) in the batch-stacked layout
    Value bRowBase = mul(bi, k);
    int64_t firstReg = (bLocal * mPerWarp + mLocal) * nPerWarp * 4;
    // Accumulator fragment j: (row, col) and (row + 8, col) pairs, col = n0 + 8j + 2 * quad.
    SmallVector<Value> cIndex, acc;
    for (int64_t j = 0; j < nPerWarp; ++j) {
      Value at = add(mul(add(aRowBase, t.group), cPitch), add(add(n0, i32(8 * j)), mul(t.quad, 2)));
      Value at8 = add(at, i32(8 * cPitch));
      cIndex.append({at, add(at, i32(1)), at8, add(at8, i32(1))});
    }
    for (int64_t i = 0; i < 4 * nPerWarp; ++i)
      acc.push_back(inRegisters ? accIn[firstReg + i]
                                : Value(LLVM::LoadOp::create(b_, loc_, f32, sharedPointer(f32, cOffset, cIndex[i]))));
    // One K step from k0 (step index s when A comes from registers, whose fragments are fixed
    // per step): the accumulators after it.
    auto kStepProducts = [&](Value k0, int64_t s, ValueRange accs) {
      SmallVector<Value> aRegs;
      Value aPtr;
      if (aRegisters) {
        // A's #tile.mma registers: n-tiles 2s and 2s + 1 of this m-tile are the fragment of
        // K step s, as pairs of 16-bit elements.
        const Elements &aIn = tiles_[op.getA()];
        int64_t first = (mLocal * (k / 8) + 2 * s) * 4;
        for (int64_t p = 0; p < 4; ++p) {
          Value v = packPair(aIn[first + 2 * p], aIn[first + 2 * p + 1]);
          // f16 operands are <2 x half> registers; bf16 ones i32.
          aRegs.push_back(ea.isF16() ? Value(LLVM::BitcastOp::create(b_, loc_, VectorType::get({2}, ea), v)) : v);
        }
      } else if (aStage) { // stored K x M when MN-major (transposed), else M x K
        aPtr = aStage->mnMajor ? stageElement(*aStage, add(k0, ldRowT), add(m0, ldColT))
                               : stageElement(*aStage, add(m0, ldRow), add(k0, ldCol));
      } else { // A stored K x M (transposed): stored row k0 + ldRowT of its batch, column m0 + ldColT.
        aPtr = sharedPointer(ea, 0,
                             aInput ? add(mul(add(add(mul(bi, k), k0), ldRowT), aPitch), add(m0, ldColT))
                                    : add(mul(add(aRowBase, ldRow), aPitch), add(k0, ldCol)));
      }
      if (!aRegisters)
        aRegs = ldmatrix(aPtr, 4, /*transpose=*/aStage ? aStage->mnMajor : bool(aInput));
      SmallVector<Value> next;
      for (int64_t j = 0; j < nPerWarp; j += 2) {
        int count = j + 1 < nPerWarp ? 4 : 2;
        SmallVector<Value> bRegs;
        if (tf32) {
          for (int64_t jj = j; jj < j + count / 2; ++jj)
            llvm::append_range(bRegs, tf32BFragment(bRowBase, k0, add(n0, i32(8 * jj))));
        } else if (bStage && bStage->mnMajor) { // stored K x N
          bRegs = ldmatrix(stageElement(*bStage, add(k0, ldRow), add(add(n0, i32(8 * j)), ldCol)), count, true);
        } else if (bStage) { // stored N x K
          bRegs = ldmatrix(stageElement(*bStage, add(add(n0, i32(8 * j)), ldRowT), add(k0, ldColT)), count, false);
        } else if (bInput) {
          // B stored N x K (transposed): stored row n0 + 8j + ldRowT of its batch, column k0 + ldColT.
          Value bAt = add(mul(add(add(mul(bi, n), add(n0, i32(8 * j))), ldRowT), bPitch), add(k0, ldColT));
          bRegs = ldmatrix(sharedPointer(ea, bOffset, bAt), count, false);
        } else {
          Value bAt = add(mul(add(add(bRowBase, k0), ldRow), bPitch), add(add(n0, i32(8 * j)), ldCol));
          bRegs = ldmatrix(sharedPointer(ea, bOffset, bAt), count, true);
        }
        for (int64_t jj = j; jj < j + count / 2; ++jj) {
          ValueRange c = accs.slice(4 * jj, 4);
          ArrayRef<Value> bPair = ArrayRef<Value>(bRegs).slice(2 * (jj - j), 2);
          Value d = NVVM::MmaOp::create(b_, loc_, accStruct, aRegs, bPair, c, ArrayRef<int64_t>{16, 8, kStep},
                                        std::nullopt, std::nullopt, std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
                                        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
          for (int i = 0; i < 4; ++i)
            next.push_back(LLVM::ExtractValueOp::create(b_, loc_, d, i));
        }
      }
      return next;
    };
    SmallVector<Value> finalAcc;
    if (aRegisters) {
      finalAcc = acc;
      for (int64_t s = 0; s * kStep < k; ++s)
        finalAcc = kStepProducts(i32(s * kStep), s, finalAcc);
    } else {
      auto kLoop = scf::ForOp::create(b_, loc_, i32(0), i32(k), i32(kStep), acc);
      OpBuilder::InsertionGuard inner(b_);
      b_.setInsertionPointToStart(kLoop.getBody());
      SmallVector<Value> next = kStepProducts(kLoop.getInductionVar(), -1, kLoop.getRegionIterArgs());
      scf::YieldOp::create(b_, loc_, next);
      finalAcc.assign(kLoop.getResults().begin(), kLoop.getResults().end());
    }
    for (int64_t i = 0; i < 4 * nPerWarp; ++i) {
      if (inRegisters)
        result[firstReg + i] = finalAcc[i];
      else
        LLVM::StoreOp::create(b_, loc_, finalAcc[i], sharedPointer(f32, cOffset, cIndex[i]));
    }
  };
  auto allTiles = [&] {
    for (int64_t bLocal = 0; bLocal < bPerWarp; ++bLocal)
      for (int64_t mLocal = 0; mLocal < mPerWarp; ++mLocal)
        tileRow(bLocal, mLocal);
  };
  if (inRegisters) {
    allTiles(); // every warp has work (accumulatorLayoutFor)
    tiles_[op] = result;
    return success();
  }
  if (grid.numWarps() == numThreads_ / 32) {
    allTiles();
  } else {
    Value active = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, t.warp, i32(grid.numWarps()));
    ifThen(active, allTiles);
  }
  barrier();
  TileLayout out = layoutOf(accType);
  Elements values;
  for (int64_t r = 0; r < out.perThread; ++r) {
    values.push_back(readShared(f32, cOffset, paddedPosition(linearIndex(out, r), n, cPitch)));
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
    return isa<FloatType>(t) ? Value(arith::ExtFOp::create(b, loc, acc, v))
                             : Value(arith::SIToFPOp::create(b, loc, acc, v));
  return arith::ExtSIOp::create(b, loc, acc, v);
}

// tile-assign-layouts records its choice (tile.mma_instruction); hand-written IR may ask for
// mma.sync where wgmma would do, never for wgmma where it cannot run (lowerMmaTensorCore).
bool KernelLowering::runsAsWgmma(mlir::tile::MmaOp op, std::string *why) {
  return codegen::runsAsWgmma(op, target_, why);
}

// The instruction follows the decision recorded on the product (tile.mma_instruction, made by
// tile-assign-layouts or tile-select-mma, or written by hand); a decision the lowering cannot
// carry out is an internal error, so what --remarks and the IR say is what the PTX holds.
LogicalResult KernelLowering::lowerMma(mlir::tile::MmaOp op) {
  std::optional<mlir::tile::MmaInstruction> chosen = recordedMmaInstruction(op);
  const bool tensorCores = usesTensorCores(op, target_);
  const bool fma = chosen == mlir::tile::MmaInstruction::fma;
  if (chosen && !fma && !tensorCores)
    return op.emitError() << "internal error: tile.mma_instruction = " << mlir::tile::stringifyMmaInstruction(*chosen)
                          << ", but this product cannot run on Tensor Cores: " << tensorCoreRefusal(op, target_);
  if (tensorCores && !fma)
    return lowerMmaTensorCore(op);
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc() << ": FMA path through shared memory ("
                          << tensorCoreRefusal(op, target_) << ")\n");
  auto aType = op.getA().getType(), bType = op.getB().getType();
  auto accType = op.getAcc().getType();
  TileLayout la = layoutOf(aType), lb = layoutOf(bType), out = layoutOf(accType);
  Type ea = aType.getElementType(), eacc = accType.getElementType();
  int64_t rank = aType.getRank(), k = aType.getDimSize(rank - 1);
  int64_t bOffset = alignTo16(la.numElements * elementBytes(ea));
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
      ai[rank - 1] = kk; // a[..., m, k]
      bi[rank - 2] = kk; // b[..., k, n]
      Value av = toAccType(b_, loc_, readShared(ea, 0, linearize(ai, la.shape)), eacc);
      Value bv = toAccType(b_, loc_, readShared(ea, bOffset, linearize(bi, lb.shape)), eacc);
      Value acc = loop.getRegionIterArgs()[r];
      next.push_back(isa<FloatType>(eacc)
                         ? Value(math::FmaOp::create(b_, loc_, av, bv, acc))
                         : Value(arith::AddIOp::create(b_, loc_, acc, arith::MulIOp::create(b_, loc_, av, bv))));
    }
    scf::YieldOp::create(b_, loc_, next);
  }
  tiles_[op] = Elements(loop.getResults().begin(), loop.getResults().end());
  return success();
}

} // namespace tile::codegen
