// The driver of kernel lowering: the kernel ABI, scalars, element-wise ops, control flow and
// the helpers the other KernelLowering*.cpp files share.

#include "compiler/codegen/lowering/KernelLowering.h"
#include "compiler/codegen/analysis/Rematerialize.h"

#include "compiler/codegen/analysis/Debug.h"

#include "compiler/codegen/analysis/MmaLayout.h"
#include "compiler/codegen/analysis/StageLayout.h"
#include "compiler/codegen/lowering/DeviceMath.h"
#include "compiler/codegen/lowering/Float8.h"
#include "dialect/TileTraits.h"
#include "dialect/gpu/TileGpu.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "tile-lower-to-llvm"

using namespace mlir;

namespace tile::codegen {

KernelLowering::KernelLowering(mlir::tile::KernelOp kernel, int64_t numThreads, GpuTarget target)
    : kernel_(kernel), b_(kernel.getContext()), loc_(kernel.getLoc()), numThreads_(numThreads), target_(target) {}

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

Value KernelLowering::i32(int64_t v) { return arith::ConstantIntOp::create(b_, loc_, v, 32); }
Value KernelLowering::i64(int64_t v) { return arith::ConstantIntOp::create(b_, loc_, v, 64); }
Value KernelLowering::toI64(Value v) {
  if (v.getType().isInteger(64))
    return v;
  if (v.getType().isIndex())
    return arith::IndexCastOp::create(b_, loc_, b_.getI64Type(), v);
  return arith::ExtSIOp::create(b_, loc_, b_.getI64Type(), v);
}
Value KernelLowering::boolAnd(Value a, Value c) {
  if (!a)
    return c;
  return arith::AndIOp::create(b_, loc_, a, c);
}

// Integer rounding on the bits: add half an ulp of tf32 (plus the kept lsb, for ties to even)
// and clear the 13 dropped bits; infinities and NaNs pass unchanged.
Value KernelLowering::roundToTf32(Value f32) {
  Value bits = arith::BitcastOp::create(b_, loc_, b_.getI32Type(), f32);
  Value lsb = arith::AndIOp::create(b_, loc_, arith::ShRUIOp::create(b_, loc_, bits, i32(13)), i32(1));
  Value biased = arith::AddIOp::create(b_, loc_, bits, arith::AddIOp::create(b_, loc_, lsb, i32(0xfff)));
  Value rounded = arith::AndIOp::create(b_, loc_, biased, i32(static_cast<int32_t>(0xffffe000u)));
  Value exponent = arith::AndIOp::create(b_, loc_, bits, i32(0x7f800000));
  Value special = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, exponent, i32(0x7f800000));
  Value result = arith::SelectOp::create(b_, loc_, special, bits, rounded);
  return arith::BitcastOp::create(b_, loc_, b_.getF32Type(), result);
}

Value KernelLowering::zeroOf(Type type) {
  type = registerType(type);
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(b_, loc_, type, b_.getFloatAttr(type, 0.0));
  return arith::ConstantOp::create(b_, loc_, type, b_.getIntegerAttr(type, 0));
}

TileLayout KernelLowering::layoutOf(Type tensorType) const { return layoutOfType(tensorType, numThreads_); }

Value KernelLowering::linearIndex(const TileLayout &layout, int64_t r) {
  if (layout.isMma())
    return mmaLinearIndex(layout, r);
  if (layout.isMmaRows())
    return mmaRowsLinearIndex(layout, r);
  if (layout.replicated)
    return arith::RemUIOp::create(b_, loc_, tid_, i32(layout.numElements));
  int64_t v = layout.vector, t = layout.numThreads;
  // e = ((r / V) * T + tid) * V + r % V
  Value run = arith::AddIOp::create(b_, loc_, i32((r / v) * t), tid_);
  return arith::AddIOp::create(b_, loc_, arith::MulIOp::create(b_, loc_, run, i32(v)), i32(r % v));
}

SmallVector<Value> KernelLowering::delinearize(Value linear, ArrayRef<int64_t> shape) {
  SmallVector<Value> idx(shape.size());
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    Value q = stride == 1 ? linear : arith::DivUIOp::create(b_, loc_, linear, i32(stride));
    idx[d] = arith::RemUIOp::create(b_, loc_, q, i32(shape[d]));
    stride *= shape[d];
  }
  return idx;
}

// An empty inline asm move: LLVM cannot see through it, so a loop's strength reduction builds
// no induction variables from addresses computed after it. The element-by-element fallbacks of
// vector accesses (misaligned or strided views, never taken on the usual arrays) recompute
// their addresses from it; otherwise each of their addresses became a 64-bit induction
// variable advanced every iteration of a pipelined loop, on the hot path and in registers.
Value KernelLowering::opaque(Value v) {
  unsigned bits = v.getType().getIntOrFloatBitWidth();
  if (bits != 32 && bits != 64) // narrower indices are rare; they keep their address arithmetic
    return v;
  bool wide = bits == 64;
  return LLVM::InlineAsmOp::create(b_, loc_, v.getType(), ValueRange{v}, wide ? "mov.b64 $0, $1;" : "mov.b32 $0, $1;",
                                   wide ? "=l,l" : "=r,r", /*has_side_effects=*/false, /*is_align_stack=*/false,
                                   LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

KernelLowering::OpaqueScalars::OpaqueScalars(KernelLowering &l, ValueRange scalars) : l_(l) {
  for (Value v : scalars) {
    Value lowered = l.scalars_.lookup(v);
    if (!lowered || !lowered.getType().isIntOrIndex() || saved_.count(v))
      continue;
    saved_[v] = lowered;
    l.scalars_[v] = l.opaque(lowered);
  }
}

KernelLowering::OpaqueScalars::~OpaqueScalars() {
  for (auto &[v, lowered] : saved_)
    l_.scalars_[v] = lowered;
}

void KernelLowering::asyncProxyFence() {
  NVVM::FenceProxyOp::create(b_, loc_, NVVM::ProxyKindAttr::get(b_.getContext(), NVVM::ProxyKind::async_shared),
                             NVVM::SharedSpaceAttr::get(b_.getContext(), NVVM::SharedSpace::shared_cta));
}

Value KernelLowering::owns(const TileLayout &layout, int64_t) {
  if (layout.isMmaRows()) { // the first lane of each quad, in the warps at n = 0
    MmaThread t = mmaThread(layout.mmaWarps[1], layout.mmaWarps[2]);
    Value first = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, t.quad, i32(0));
    if (layout.mmaWarps[2] == 1)
      return first;
    Value atN0 = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, t.warpN, i32(0));
    return arith::AndIOp::create(b_, loc_, first, atN0);
  }
  if (!layout.replicated)
    return {};
  return arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, tid_, i32(layout.numElements));
}

Value KernelLowering::ifValue(Value cond, Type type, const std::function<Value()> &then,
                              const std::function<Value()> &otherwise) {
  if (!cond)
    return then();
  auto ifOp = scf::IfOp::create(b_, loc_, TypeRange{type}, cond, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b_, loc_, then());
    b_.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b_, loc_, otherwise());
  }
  return ifOp.getResult(0);
}

void KernelLowering::ifThen(Value cond, const std::function<void()> &then) {
  if (!cond) {
    then();
    return;
  }
  auto ifOp = scf::IfOp::create(b_, loc_, TypeRange{}, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b_);
  b_.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  then();
}

Value KernelLowering::elementPointer(const Array &array, ArrayRef<Value> indices) {
  Value offset;
  for (auto [i, idx] : llvm::enumerate(indices)) {
    Value term = arith::MulIOp::create(b_, loc_, idx, array.strides[i]);
    offset = offset ? Value(arith::AddIOp::create(b_, loc_, offset, term)) : term;
  }
  Type storage = storageType(array.elementType);
  if (!offset)
    return array.ptr;
  return LLVM::GEPOp::create(b_, loc_, array.ptr.getType(), storage, array.ptr, ValueRange{offset});
}

Value KernelLowering::loadElement(Type type, Value ptr) {
  if (type.isInteger(1)) {
    Value byte = LLVM::LoadOp::create(b_, loc_, b_.getI8Type(), ptr);
    return arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ne, byte,
                                 arith::ConstantIntOp::create(b_, loc_, 0, 8));
  }
  if (type.isTF32()) // a tfloat32 array may hold any f32; its element is the rounded value
    return roundToTf32(LLVM::LoadOp::create(b_, loc_, b_.getF32Type(), ptr));
  return LLVM::LoadOp::create(b_, loc_, registerType(type), ptr);
}

void KernelLowering::storeElement(Value value, Value ptr) {
  if (value.getType().isInteger(1))
    value = arith::ExtUIOp::create(b_, loc_, b_.getI8Type(), value);
  LLVM::StoreOp::create(b_, loc_, value, ptr);
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

int64_t KernelLowering::scratchOffset() const { return prefetchBytes_ + (pipelineDepth_ ? pipelineBytes_ : 0); }

void KernelLowering::reserveShared(int64_t bytes) {
  bytes += scratchOffset();
  if (bytes > sharedBytes_) {
    sharedBytes_ = bytes;
    largestSharedUser_ = currentOp_;
  }
}

static std::string kibString(int64_t bytes) {
  if (bytes % 1024 == 0)
    return std::to_string(bytes / 1024) + " KiB";
  return llvm::formatv("{0:F1} KiB", bytes / 1024.0).str();
}

// The error names the op that needs the most, with its largest tile, since that is the tile to
// shrink: "tile 256x256xf32 needs 288 KiB of shared memory; the limit on sm_90 is 227 KiB".
LogicalResult KernelLowering::checkSharedMemoryLimit() {
  int64_t limit = target_.maxSharedBytesPerBlock();
  // The mbarriers follow the other bytes.
  if (alignTo16(std::max(prefetchBytes_ + pipelineBytes_, sharedBytes_)) + tailBytes() <= limit)
    return success();
  Operation *op = largestSharedUser_ ? largestSharedUser_ : kernel_.getOperation();
  RankedTensorType largest;
  auto consider = [&](Type t) {
    if (auto tt = dyn_cast<RankedTensorType>(t))
      if (!largest || tt.getNumElements() * elementBytes(tt.getElementType()) >
                          largest.getNumElements() * elementBytes(largest.getElementType()))
        largest = tt;
  };
  for (Type t : op->getOperandTypes())
    consider(t);
  for (Type t : op->getResultTypes())
    consider(t);
  std::string what = "kernel '" + kernel_.getSymName().str() + "'";
  if (largest) {
    std::string shape;
    llvm::raw_string_ostream os(shape);
    llvm::interleave(largest.getShape(), os, "x");
    os << "x" << largest.getElementType();
    what = "tile " + shape;
  }
  op->emitError() << what << " needs " << kibString(std::max(prefetchBytes_ + pipelineBytes_, sharedBytes_))
                  << " of shared memory; the limit on sm_" << target_.sm << " is " << kibString(limit)
                  << "; use smaller tiles";
  return failure();
}

// Every tile is unrolled into per-thread registers, so a tile far beyond the register file
// would only exhaust the compiler: refuse it before lowering, at the op that makes it.
LogicalResult KernelLowering::checkRegisterLimit() {
  constexpr int64_t kMaxWordsPerThread = 4096; // 16 KiB: 16x ptxas's 255 registers, all spilled
  WalkResult walk = kernel_.getBody().walk([&](Operation *op) {
    for (Value v : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type)
        continue;
      std::optional<int64_t> count = mlir::tile::tileElementCount(type.getShape());
      int64_t words = (elementBytes(type.getElementType()) + 3) / 4;
      int64_t perThread = count ? std::max<int64_t>(1, *count / numThreads_) * words : 0;
      if (count && perThread <= kMaxWordsPerThread)
        continue;
      std::string shape;
      llvm::raw_string_ostream os(shape);
      llvm::interleave(type.getShape(), os, "x");
      os << "x" << type.getElementType();
      auto diag = op->emitError() << "tile " << shape << " needs ";
      if (count)
        diag << perThread << " 32-bit registers per thread at " << numThreads_ << " threads";
      else
        diag << "more than 2^63 elements";
      diag << "; the limit is " << kMaxWordsPerThread << " (use smaller tiles or more threads)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

Value KernelLowering::sharedWindowBase() {
  return LLVM::PtrToIntOp::create(b_, loc_, b_.getI32Type(), LLVM::AddressOfOp::create(b_, loc_, smem_));
}

Value KernelLowering::sharedBase() {
  Value base = LLVM::AddressOfOp::create(b_, loc_, smem_);
  if (!scratchOffset())
    return base;
  // In a pipelined loop the scratch follows the stages (KernelLoweringPipeline.cpp).
  return LLVM::GEPOp::create(b_, loc_, base.getType(), b_.getI8Type(), base, ValueRange{i32(scratchOffset())});
}

Value KernelLowering::sharedPointer(Type type, int64_t byteOffset, Value index) {
  Value base = sharedBase();
  Value at = arith::AddIOp::create(b_, loc_, index, i32(byteOffset / elementBytes(type)));
  return LLVM::GEPOp::create(b_, loc_, base.getType(), storageType(type), base, ValueRange{at});
}

Value KernelLowering::paddedPosition(Value linear, int64_t rowLength, int64_t rowPitch) {
  if (!rowPitch)
    return linear;
  Value row = arith::DivUIOp::create(b_, loc_, linear, i32(rowLength));
  return arith::AddIOp::create(b_, loc_, arith::MulIOp::create(b_, loc_, row, i32(rowPitch)),
                               arith::RemUIOp::create(b_, loc_, linear, i32(rowLength)));
}

// A barrier orders the shared-memory accesses around it, which a deferred wgmma's reads are
// not part of: its wait comes first.
void KernelLowering::barrier() {
  waitForDeferredWgmma();
  if (producerThreads_)
    consumerBarrier();
  else
    NVVM::Barrier0Op::create(b_, loc_);
}

void KernelLowering::shareOwnersValues(Elements &values, const TileLayout &layout, Type type) {
  if (!layout.replicated)
    return;
  barrier();
  writeShared(values, layout, type, 0); // only owners write
  barrier();
  for (int64_t r = 0; r < layout.perThread; ++r)
    values[r] = readShared(type, 0, linearIndex(layout, r));
}

void KernelLowering::writeShared(const Elements &values, const TileLayout &layout, Type type, int64_t byteOffset,
                                 int64_t rowPitch) {
  int64_t rowLength = layout.rowLength();
  int64_t footprint = rowPitch ? layout.numElements / rowLength * rowPitch : layout.numElements;
  reserveShared(byteOffset + footprint * elementBytes(type));
  // A run of registers holding consecutive elements of one row (TileLayout::runLength) is
  // stored in vectors of up to 16 bytes (st.shared.v4), which also spreads a warp's stores over
  // more banks. The vector stays aligned when the offset, the row pitch and the run start are
  // multiples of it.
  int64_t esize = elementBytes(type);
  int64_t width = 1;
  if (!layout.replicated && !type.isInteger(1) && layout.rowLength() % layout.runLength() == 0) {
    width = std::min<int64_t>(layout.runLength(), 16 / esize);
    while (width > 1 && (byteOffset % (width * esize) || (rowPitch && rowPitch % width)))
      width /= 2;
  }
  for (int64_t r = 0; r < static_cast<int64_t>(values.size()); r += width)
    storeRun(values, layout, type, r, width,
             sharedPointer(type, byteOffset, paddedPosition(linearIndex(layout, r), rowLength, rowPitch)));
}

void KernelLowering::storeRun(const Elements &values, const TileLayout &layout, Type type, int64_t r, int64_t width,
                              Value ptr) {
  if (width == 1) {
    // Replicas hold the owner's value; only the owner writes.
    ifThen(owns(layout, r), [&] { storeElement(values[r], ptr); });
    return;
  }
  auto vectorType = VectorType::get({width}, storageType(type));
  Value vec = LLVM::PoisonOp::create(b_, loc_, vectorType);
  for (int64_t i = 0; i < width; ++i)
    vec = LLVM::InsertElementOp::create(b_, loc_, vec, values[r + i], i32(i));
  LLVM::StoreOp::create(b_, loc_, vec, ptr, width * elementBytes(type));
}

Value KernelLowering::readShared(Type type, int64_t byteOffset, Value linear) {
  return loadElement(type, sharedPointer(type, byteOffset, linear));
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

// The element type of a tile, array or scalar type that the NVPTX path cannot handle (8-bit
// floats other than e4m3fn and e5m2, 4-bit ones: the interpreter runs them), or null.
static Type unsupportedElementType(Type t) {
  if (auto array = dyn_cast<mlir::tile::ArrayType>(t))
    t = array.getElementType();
  t = getElementTypeOrSelf(t);
  bool supported = t.isInteger(1) || t.isInteger(8) || t.isInteger(16) || t.isInteger(32) || t.isInteger(64) ||
                   t.isF16() || t.isBF16() || t.isF32() || t.isF64() || t.isTF32() || isFloat8(t);
  return isa<FloatType, IntegerType>(t) && !supported ? t : Type();
}

// The first argument or op of `kernel` with such an element type (`where` names an argument).
static Operation *firstUnsupportedElementType(mlir::tile::KernelOp kernel, Type &bad, std::string &where) {
  for (BlockArgument arg : kernel.getBody().getArguments())
    if ((bad = unsupportedElementType(arg.getType()))) {
      where = " (argument '" + kernel.getParamName(arg.getArgNumber()) + "')";
      return kernel;
    }
  Operation *found = nullptr;
  kernel.walk([&](Operation *op) {
    for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
      if ((bad = unsupportedElementType(t)))
        return found = op, WalkResult::interrupt();
    // 8-bit floats are converted element by element (Float8.h); reductions, scans and atomics
    // combine registers of the element type.
    if (isa<mlir::tile::ReduceOp, mlir::tile::ScanOp, mlir::tile::AtomicAddOp, mlir::tile::AtomicRMWOp,
            mlir::tile::AtomicCASOp>(op))
      for (Type t : op->getOperandTypes())
        if (isFloat8(getElementTypeOrSelf(t))) {
          bad = getElementTypeOrSelf(t);
          where = " in " + op->getName().getStringRef().str() + " (convert the tile with ct.astype first)";
          return found = op, WalkResult::interrupt();
        }
    return WalkResult::advance();
  });
  return found;
}

FailureOr<KernelLaunchInfo> KernelLowering::run() {
  Type bad;
  std::string where;
  if (Operation *op = firstUnsupportedElementType(kernel_, bad, where))
    return op->emitError("code generation does not support element type ")
           << bad << " yet" << where << "; the interpreter runs it (TILE_INTERPRET=1)";
  if (failed(checkWgmmaRegisters()))
    return failure();
  MLIRContext *ctx = kernel_.getContext();
  auto module = kernel_->getParentOfType<ModuleOp>();
  b_.setInsertionPoint(kernel_);
  auto globalPtr = LLVM::LLVMPointerType::get(ctx, 1);

  // The dynamic shared memory every data movement uses (sized in the metadata), aligned for
  // swizzled stage buffers (StageLayout.h).
  std::string smemName = "__tile_smem";
  smem_ = module.lookupSymbol<LLVM::GlobalOp>(smemName);
  if (!smem_) {
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(module.getBody());
    smem_ = LLVM::GlobalOp::create(b_, loc_, LLVM::LLVMArrayType::get(b_.getI8Type(), 0), /*isConstant=*/false,
                                   LLVM::Linkage::External, smemName, Attribute(), /*alignment=*/kSwizzleAlign,
                                   /*addrSpace=*/3);
  }

  // ABI: an array is (pointer, shape[rank] i64, strides[rank] i64); a bool scalar is i8.
  SmallVector<Type> params;
  for (Type t : kernel_.getArgumentTypes()) {
    if (auto array = dyn_cast<mlir::tile::ArrayType>(t)) {
      params.push_back(globalPtr);
      params.append(2 * array.getRank(), b_.getI64Type());
    } else {
      params.push_back(storageType(t));
    }
  }
  // TMA descriptors (tile.tma_maps) follow as 128-byte __grid_constant__ parameters.
  ArrayAttr tmaMapList = tmaMaps();
  size_t firstTmaParam = params.size();
  if (tmaMapList)
    params.append(tmaMapList.size(), LLVM::LLVMPointerType::get(ctx));
  std::string symbol = kernel_.getSymName().str();
  findSpecializedLoop();
  auto fn = LLVM::LLVMFuncOp::create(b_, kernel_.getLoc(), symbol + "__tile",
                                     LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), params));
  fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), UnitAttr::get(ctx));
  fn->setAttr("nvvm.maxntid", b_.getDenseI32ArrayAttr({static_cast<int32_t>(numThreads_ + producerThreads_), 1, 1}));
  // .minnctapersm 1: one resident block per SM is enough, so ptxas may give every thread the
  // registers it needs (up to 65536 / numThreads, at most 255). With .maxntid alone, ptxas
  // (CUDA 13.0) compiles kernels that spill heavily for full occupancy instead, at 32
  // registers, and in that mode it miscompiled fwd_pass_state at Q=256: each thread loaded its
  // last 4-element run of initial_states from the start of the row (it rematerialised the
  // column offset from a register it had already reused for the address's high word), so the
  // states of chunk 0 were wrong (test/codegen/min-ctas.py).
  // The kernel option occupancy=N asks for N resident blocks per SM instead: ptxas then keeps
  // every thread within 65536 / (N * numThreads) registers.
  int32_t minBlocks = wgmmaOccupancy(static_cast<int32_t>(kernel_.getOccupancy().value_or(1)));
  fn->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), b_.getI32IntegerAttr(minBlocks));
  for (size_t i = firstTmaParam; i < params.size(); ++i) {
    fn.setArgAttr(unsigned(i), LLVM::LLVMDialect::getByValAttrName(),
                  TypeAttr::get(LLVM::LLVMArrayType::get(b_.getI8Type(), 128)));
    fn.setArgAttr(unsigned(i), LLVM::LLVMDialect::getAlignAttrName(), b_.getI64IntegerAttr(64));
    fn.setArgAttr(unsigned(i), NVVM::NVVMDialect::getGridConstantAttrName(), UnitAttr::get(ctx));
  }
  Block *entry = fn.addEntryBlock(b_);
  b_.setInsertionPointToStart(entry);
  tid_ = NVVM::ThreadIdXOp::create(b_, loc_, b_.getI32Type());
  for (size_t i = firstTmaParam; i < params.size(); ++i)
    tmaParams_.push_back(entry->getArgument(unsigned(i)));

  if (auto stages = kernel_->getAttrOfType<IntegerAttr>(kPipelineBytesAttr))
    pipelineBytes_ = stages.getInt();
  if (auto prefetch = kernel_->getAttrOfType<IntegerAttr>(kPrefetchBytesAttr))
    prefetchBytes_ = prefetch.getInt();
  Block &body = kernel_.getBody().front();
  unsigned next = 0;
  for (BlockArgument arg : body.getArguments()) {
    if (auto array = dyn_cast<mlir::tile::ArrayType>(arg.getType())) {
      Array a;
      a.ptr = entry->getArgument(next++);
      a.elementType = array.getElementType();
      for (int64_t d = 0; d < array.getRank(); ++d)
        a.shape.push_back(entry->getArgument(next++));
      for (int64_t d = 0; d < array.getRank(); ++d)
        a.strides.push_back(entry->getArgument(next++));
      a.aligned = bool(kernel_.getArgAttr(arg.getArgNumber(), mlir::tile::kAlignedArgAttr));
      arrays_[arg] = a;
    } else {
      Value v = entry->getArgument(next++);
      if (arg.getType().isInteger(1))
        v = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ne, v, arith::ConstantIntOp::create(b_, loc_, 0, 8));
      scalars_[arg] = v;
    }
  }
  if (failed(checkRegisterLimit()) || failed(verifyPipelineAttributes()) || failed(verifyTmaAttributes()))
    return failure();
  bool tmaPrefetches = false;
  kernel_.getBody().front().walk(
      [&](mlir::tile::LoadOp l) { tmaPrefetches |= l->hasAttr(kPrefetchOffsetAttr) && usesTma(l); });
  waitBeforeCopiesAhead();
  declareTmaBarriers(tmaPrefetches ? 2 : 0);
  declareTmaStaging();
  // With a warp-specialized loop, the rest is the consumers' code.
  scf::IfOp consumers = startWarpSpecialization();
  if (tmaPrefetches) {
    initMbarriers(tmaPrefetchBarrier_, 2);
    barrier();
  }
  issuePrefetches();
  if (failed(lowerRegion(kernel_.getBody())))
    return failure();
  waitForTmaStores();
  if (consumers)
    b_.setInsertionPointAfter(consumers);
  LLVM::ReturnOp::create(b_, loc_, ValueRange{});
  // The stages were sized from an estimate of the scratch; when the scratch turns out larger,
  // the caller lowers the kernel again without them (pipelineOverflow).
  if (prefetchBytes_ + pipelineBytes_ && alignTo16(sharedBytes_) + tailBytes() > target_.maxSharedBytesPerBlock()) {
    pipelineOverflow_ = true;
    fn.erase();
    return failure();
  }
  if (failed(checkSharedMemoryLimit()))
    return failure();
  // The mbarriers and the staging buffer of TMA stores follow everything else.
  int64_t dataBytes = alignTo16(std::max(prefetchBytes_ + pipelineBytes_, sharedBytes_));
  KernelLaunchInfo info;
  info.symbol = symbol + "__tile";
  info.numThreads = numThreads_ + producerThreads_;
  info.maxUsefulThreads = wgmmaThreadLimit();
  info.sharedMemoryBytes = alignTo16(placeTail(dataBytes));
  return info;
}

LogicalResult KernelLowering::lowerRegion(Region &region) {
  for (Operation &op : region.front().without_terminator()) {
    loc_ = op.getLoc();
    currentOp_ = &op;
    if (deferredWgmma_) {
      if (mayRunBeforeWgmmaWait(&op))
        ++deferredWgmma_->opsOverlapped;
      else
        waitForDeferredWgmma();
    }
    if (failed(lowerOp(&op)))
      return failure();
    // Every tile result must now have this thread's elements (a permute folded into the
    // products it feeds, or only recomputed by its users, has none: they read its input; a
    // buffer's tile has none: its products read the buffer).
    auto permute = dyn_cast<mlir::tile::PermuteOp>(op);
    if ((permute && (permuteFoldsIntoMma(permute) || onlyRematerialized(permute))) || isa<mlir::tgpu::LoadSharedOp>(op))
      continue;
    for (Value r : op.getResults())
      if (auto type = dyn_cast<RankedTensorType>(r.getType()))
        if (tiles_.lookup(r).size() != static_cast<size_t>(layoutOf(type).perThread))
          return op.emitError("internal error: code generation lost the elements of this op's result");
  }
  // The terminator's operands (lowered by the region's owner) are complete.
  loc_ = region.front().back().getLoc();
  waitForDeferredWgmma();
  return success();
}

//===----------------------------------------------------------------------===//
// Op dispatch
//===----------------------------------------------------------------------===//

// Ops that work on any layout: element-wise ones (every operand has the result's layout, so
// register r of each holds the same element), control flow, and the layout-aware ones.
static bool acceptsAnyLayout(Operation *op) {
  // Stores write each register at its own element; reshapes carry registers over where both
  // layouts agree (else they go through shared memory, which reads and writes any layout).
  if (isa<mlir::tile::ConvertLayoutOp, mlir::tile::MmaOp, mlir::tile::StoreOp, mlir::tile::ReshapeOp, scf::ForOp,
          scf::IfOp, scf::YieldOp, scf::WhileOp, scf::ConditionOp>(op))
    return true;
  // A buffer holds any layout's tile; a product reads it in place.
  if (isa<mlir::tgpu::TileGpuDialect>(op->getDialect()))
    return true;
  if (auto bc = dyn_cast<mlir::tile::BroadcastOp>(op)) { // a scalar, a 1-element or recomputed tile fill any layout
    auto in = dyn_cast<RankedTensorType>(bc.getInput().getType());
    return !in || in.getNumElements() == 1 || bc->hasAttr(kRematerializeAttr) ||
           isa_and_nonnull<mlir::tile::MmaRowsLayoutAttr>(in.getEncoding()); // lowerBroadcastMmaRows
  }
  // A row reduction of an accumulator into its rows (lowerReduceToMmaRows).
  if (auto reduce = dyn_cast<mlir::tile::ReduceOp>(op))
    return isa_and_nonnull<mlir::tile::MmaRowsLayoutAttr>(reduce.getType().getEncoding());
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect());
}

// Every user of `op`'s result recomputes the elements it needs (a conversion or broadcast
// marked tile.rematerialize), so nothing reads them and the data movement is skipped.
bool KernelLowering::onlyRematerialized(Operation *op) {
  return !op->use_empty() && llvm::all_of(op->getUsers(), [](Operation *user) {
    return isa<mlir::tile::ConvertLayoutOp, mlir::tile::BroadcastOp>(user) && user->hasAttr(kRematerializeAttr);
  });
}

LogicalResult KernelLowering::lowerOp(Operation *op) {
  if (!acceptsAnyLayout(op))
    for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
      if (auto tt = dyn_cast<RankedTensorType>(t); tt && tt.getEncoding())
        return op->emitError("code generation needs the canonical layout for '")
               << op->getName() << "', not " << tt << " (a tile.convert_layout is missing)";
  if (auto convert = dyn_cast<mlir::tile::ConvertLayoutOp>(op))
    return lowerConvertLayout(convert);
  // An unsigned scalar parameter seen as the signless integer of its width: the same register.
  if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op);
      cast && cast->getNumOperands() == 1 && scalars_.count(cast.getOperand(0))) {
    scalars_[cast.getResult(0)] = scalars_[cast.getOperand(0)];
    return success();
  }
  if (auto bid = dyn_cast<mlir::tile::BlockIdOp>(op)) {
    Value v = bid.getAxis() == 0   ? Value(NVVM::BlockIdXOp::create(b_, loc_, b_.getI32Type()))
              : bid.getAxis() == 1 ? Value(NVVM::BlockIdYOp::create(b_, loc_, b_.getI32Type()))
                                   : Value(NVVM::BlockIdZOp::create(b_, loc_, b_.getI32Type()));
    scalars_[bid] = v;
    return success();
  }
  if (auto nb = dyn_cast<mlir::tile::NumBlocksOp>(op)) {
    Value v = nb.getAxis() == 0   ? Value(NVVM::GridDimXOp::create(b_, loc_, b_.getI32Type()))
              : nb.getAxis() == 1 ? Value(NVVM::GridDimYOp::create(b_, loc_, b_.getI32Type()))
                                  : Value(NVVM::GridDimZOp::create(b_, loc_, b_.getI32Type()));
    scalars_[nb] = v;
    return success();
  }
  if (auto dim = dyn_cast<mlir::tile::DimOp>(op)) {
    scalars_[dim] = arrays_[dim.getArray()].shape[dim.getAxis()];
    return success();
  }
  if (auto stride = dyn_cast<mlir::tile::StrideOp>(op)) {
    scalars_[stride] = arrays_[stride.getArray()].strides[stride.getAxis()];
    return success();
  }
  if (auto load = dyn_cast<mlir::tile::LoadOp>(op))
    return lowerLoad(load);
  if (auto store = dyn_cast<mlir::tile::StoreOp>(op))
    return lowerStore(store);
  if (isa<mlir::tile::GatherOp, mlir::tile::ScatterOp, mlir::tile::AtomicAddOp>(op))
    return lowerElementAccess(op);
  if (isa<mlir::tile::AtomicRMWOp, mlir::tile::AtomicCASOp>(op))
    return lowerAtomic(op);
  if (auto reduce = dyn_cast<mlir::tile::ReduceOp>(op))
    return lowerReduce(reduce);
  if (auto scan = dyn_cast<mlir::tile::ScanOp>(op))
    return lowerScan(scan);
  if (auto mma = dyn_cast<mlir::tile::MmaOp>(op))
    return lowerMma(mma);
  if (isa<mlir::tgpu::TileGpuDialect>(op->getDialect()))
    return lowerSharedBufferOp(op);
  if (auto permute = dyn_cast<mlir::tile::PermuteOp>(op); permute && permuteFoldsIntoMma(permute)) {
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.permute at " << op->getLoc()
                            << ": folded into the Tensor Core products it feeds\n");
    return success();
  }
  if (auto permute = dyn_cast<mlir::tile::PermuteOp>(op); permute && onlyRematerialized(permute)) {
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.permute at " << op->getLoc()
                            << ": not moved, its users recompute its elements\n");
    return success();
  }
  if (auto bc = dyn_cast<mlir::tile::BroadcastOp>(op); bc && bc->hasAttr(kRematerializeAttr))
    return lowerRematerializedBroadcast(bc);
  if (auto bc = dyn_cast<mlir::tile::BroadcastOp>(op);
      bc && isa<RankedTensorType>(bc.getInput().getType()) && layoutOf(bc.getInput().getType()).isMmaRows())
    return lowerBroadcastMmaRows(bc);
  if (isa<mlir::tile::IotaOp, mlir::tile::BroadcastOp, mlir::tile::ExpandDimsOp, mlir::tile::ReshapeOp,
          mlir::tile::PermuteOp, mlir::tile::CatOp, mlir::tile::ExtractOp>(op))
    return lowerShapeOp(op);
  if (auto print = dyn_cast<mlir::tile::PrintOp>(op))
    return lowerPrint(print);
  if (auto assertOp = dyn_cast<mlir::tile::AssertOp>(op))
    return lowerAssert(assertOp);
  if (auto control = dyn_cast<mlir::tile::GridDependencyControlOp>(op))
    return lowerGridDependencyControl(control);
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return lowerFor(forOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return lowerIf(ifOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return lowerWhile(whileOp);
  if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    // 0-d tiles are replicated: every thread holds the value.
    scalars_[extract] = tiles_[extract.getTensor()][0];
    return success();
  }
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return lowerElementwise(op);
  return op->emitError("code generation does not support '") << op->getName() << "' yet";
}

FailureOr<SmallVector<Value>> KernelLowering::lowerElementwiseOnScalars(Operation *op, ValueRange operands) {
  FailureOr<Value> float8 = lowerFloat8Elementwise(op, operands);
  if (failed(float8))
    return failure();
  if (*float8)
    return SmallVector<Value>{*float8};
  if (Value tf32 = lowerTf32Elementwise(op, operands))
    return SmallVector<Value>{tf32};
  FailureOr<Value> special = lowerDeviceMath(b_, op, operands);
  if (failed(special))
    return failure();
  if (*special)
    return SmallVector<Value>{*special};
  SmallVector<Type> resultTypes;
  for (Type t : op->getResultTypes())
    resultTypes.push_back(registerType(getElementTypeOrSelf(t)));
  OperationState state(loc_, op->getName(), operands, resultTypes, op->getAttrs());
  return SmallVector<Value>(b_.create(state)->getResults());
}

// Element-wise ops touching tf32 run on the f32 registers that hold tf32 values: conversions
// to tf32 round, conversions from it are exact, and arithmetic producing tf32 rounds its f32
// result. Returns null for ops without tf32 operands or results.
Value KernelLowering::lowerTf32Elementwise(Operation *op, ValueRange operands) {
  auto isTf32 = [](Type t) { return getElementTypeOrSelf(t).isTF32(); };
  bool resultTf32 = op->getNumResults() == 1 && isTf32(op->getResult(0).getType());
  bool operandTf32 = llvm::any_of(op->getOperandTypes(), isTf32);
  if (!resultTf32 && !operandTf32)
    return {};
  Type result = registerType(getElementTypeOrSelf(op->getResult(0).getType()));
  if (isa<arith::TruncFOp, arith::ExtFOp>(op)) {
    Value v = operands[0];
    if (v.getType() != b_.getF32Type()) // via f32: exact from tf32, and f64 -> f32 -> tf32
      v = v.getType().getIntOrFloatBitWidth() > 32 ? Value(arith::TruncFOp::create(b_, loc_, b_.getF32Type(), v))
                                                   : Value(arith::ExtFOp::create(b_, loc_, b_.getF32Type(), v));
    if (resultTf32)
      return roundToTf32(v);
    if (result == v.getType())
      return v;
    return result.getIntOrFloatBitWidth() > 32 ? Value(arith::ExtFOp::create(b_, loc_, result, v))
                                               : Value(arith::TruncFOp::create(b_, loc_, result, v));
  }
  FailureOr<Value> special = lowerDeviceMath(b_, op, operands);
  if (failed(special))
    return {};
  Value v = *special;
  if (!v) {
    OperationState state(loc_, op->getName(), operands, TypeRange{result}, op->getAttrs());
    v = b_.create(state)->getResult(0);
  }
  if (resultTf32 && !isa<arith::SelectOp, arith::BitcastOp>(op))
    v = roundToTf32(v);
  return v;
}

LogicalResult KernelLowering::lowerElementwise(Operation *op) {
  // (Element types were checked for the whole kernel before lowering: run().)
  bool isTile = llvm::any_of(op->getResultTypes(), [](Type t) { return isa<RankedTensorType>(t); });
  // A constant of its register type (a tf32 constant's value is exact in f32).
  auto constantOf = [&](Attribute value) -> Value {
    auto typed = cast<TypedAttr>(value);
    if (auto f = dyn_cast<FloatAttr>(typed); f && f.getType().isTF32())
      return arith::ConstantOp::create(b_, loc_, b_.getF32FloatAttr(f.getValueAsDouble()));
    if (auto f = dyn_cast<FloatAttr>(typed); f && isFloat8(f.getType()))
      return float8Constant(b_, loc_, f.getValue(), f.getType());
    return arith::ConstantOp::create(b_, loc_, typed.getType(), typed);
  };
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (!isTile) {
      scalars_[constant] = constantOf(constant.getValue());
      return success();
    }
    auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
    if (!dense)
      return op->emitError("code generation supports only splat constant tiles");
    auto type = cast<RankedTensorType>(constant.getType());
    Value scalar = constantOf(dense.getSplatValue<Attribute>());
    tiles_[constant] = Elements(layoutOf(type).perThread, scalar);
    return success();
  }
  int64_t count = isTile ? layoutOf(op->getResult(0).getType()).perThread : 1;
  SmallVector<Elements> results(op->getNumResults());
  for (int64_t r = 0; r < count; ++r) {
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(isa<RankedTensorType>(v.getType()) ? tiles_[v][r] : scalars_.lookup(v));
    FailureOr<SmallVector<Value>> scalarResults = lowerElementwiseOnScalars(op, operands);
    if (failed(scalarResults))
      return failure();
    for (auto [i, v] : llvm::enumerate(*scalarResults))
      results[i].push_back(v);
  }
  for (unsigned i = 0; i < op->getNumResults(); ++i) {
    if (isTile)
      tiles_[op->getResult(i)] = results[i];
    else
      scalars_[op->getResult(i)] = results[i][0];
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow: tiles flow through scf as their per-thread elements
//===----------------------------------------------------------------------===//

// Flattens values (tiles become their elements) for scf operands and results.
void flatten(KernelLowering &l, ValueRange values, SmallVectorImpl<Value> &out) {
  for (Value v : values) {
    if (isa<RankedTensorType>(v.getType()))
      llvm::append_range(out, l.tiles_[v]);
    else
      out.push_back(l.scalars_.lookup(v));
  }
}

// Binds `values` to consecutive entries of `flat` starting at `pos`.
void unflatten(KernelLowering &l, ValueRange values, ValueRange flat, size_t pos) {
  for (Value v : values) {
    if (isa<RankedTensorType>(v.getType())) {
      int64_t n = l.layoutOf(v.getType()).perThread;
      l.tiles_[v] = KernelLowering::Elements(flat.begin() + pos, flat.begin() + pos + n);
      pos += n;
    } else {
      l.scalars_[v] = flat[pos++];
    }
  }
}

LogicalResult KernelLowering::lowerFor(scf::ForOp op) {
  // A pipelined loop (KernelLoweringPipeline.cpp) also carries the index of the stage its
  // iteration reads, after the loop's own values.
  bool pipelined = pipelineStages(op) != 0;
  if (pipelined)
    pipelinePrologue(op);
  SmallVector<Value> inits;
  flatten(*this, op.getInitArgs(), inits);
  if (pipelined)
    inits.push_back(i32(0));
  scf::ForOp newFor = createLoweredLoop(op, inits);
  {
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToEnd(newFor.getBody());
    scalars_[op.getInductionVar()] = newFor.getInductionVar();
    unflatten(*this, op.getRegionIterArgs(), newFor.getRegionIterArgs(), 0);
    Value stage = pipelined ? newFor.getRegionIterArgs().back() : Value();
    if (pipelined)
      pipelineIteration(op, newFor.getInductionVar(), stage);
    pipelineDepth_ += pipelined;
    if (failed(lowerRegion(op.getRegion())))
      return failure();
    pipelineDepth_ -= pipelined;
    SmallVector<Value> yields;
    flatten(*this, op.getBody()->getTerminator()->getOperands(), yields);
    if (pipelined)
      yields.push_back(pipelineNextStage(op, stage));
    scf::YieldOp::create(b_, loc_, yields);
  }
  unflatten(*this, op.getResults(), newFor.getResults(), 0);
  // A product that left its last wgmma group pending (kWgmmaPendingAttr): its result waits.
  if (mlir::tile::MmaOp mma = markedPendingWgmma(op)) {
    Value result = op.getResult(cast<BlockArgument>(mma.getAcc()).getArgNumber() - 1);
    tiles_[result] = waitForWgmma(tiles_[result]);
  }
  if (pipelined)
    pipelineEpilogue(op);
  return success();
}

scf::ForOp KernelLowering::createLoweredLoop(scf::ForOp op, ValueRange inits) {
  auto lowered = scf::ForOp::create(b_, loc_, scalars_.lookup(op.getLowerBound()), scalars_.lookup(op.getUpperBound()),
                                    scalars_.lookup(op.getStep()), inits);
  lowered.setUnsignedCmp(op.getUnsignedCmp());
  Block *body = lowered.getBody();
  if (!body->empty() && isa<scf::YieldOp>(body->back()))
    body->back().erase();
  return lowered;
}

LogicalResult KernelLowering::lowerIf(scf::IfOp op) {
  SmallVector<Type> types;
  for (Type t : op.getResultTypes()) {
    if (isa<RankedTensorType>(t))
      types.append(layoutOf(t).perThread, registerType(getElementTypeOrSelf(t)));
    else
      types.push_back(t);
  }
  auto newIf = scf::IfOp::create(b_, loc_, types, scalars_.lookup(op.getCondition()), /*withElseRegion=*/true);
  for (auto [from, to] : {std::pair{&op.getThenRegion(), &newIf.getThenRegion()},
                          std::pair{&op.getElseRegion(), &newIf.getElseRegion()}}) {
    OpBuilder::InsertionGuard guard(b_);
    Block *block = &to->front();
    if (!block->empty())
      block->back().erase();
    b_.setInsertionPointToEnd(block);
    SmallVector<Value> yields;
    if (!from->empty()) {
      if (failed(lowerRegion(*from)))
        return failure();
      flatten(*this, from->front().getTerminator()->getOperands(), yields);
    }
    scf::YieldOp::create(b_, loc_, yields);
  }
  unflatten(*this, op.getResults(), newIf.getResults(), 0);
  return success();
}

// A wgmma with an m64nN accumulator keeps N/2 registers of it live per thread, with its A
// fragment and addresses beside them: ptxas refuses to compile it below that ("Insufficient
// registers", C7602). The product that needs the most (null without wgmma) and its need.
std::pair<mlir::tile::MmaOp, int64_t> KernelLowering::wgmmaRegisterNeed() {
  std::pair<mlir::tile::MmaOp, int64_t> worst{nullptr, 0};
  kernel_.walk([&](mlir::tile::MmaOp mma) {
    if (!runsAsWgmma(mma))
      return;
    int64_t need = std::min<int64_t>(cast<RankedTensorType>(mma.getType()).getShape().back(), 256) / 2 + 32;
    if (need > worst.second)
      worst = {mma, need};
  });
  return worst;
}

// Registers a thread may have with `blocks` resident blocks of numThreads_ (65536 per SM, at
// most 255 per thread).
static int64_t registerShare(int64_t blocks, int64_t threads) {
  return std::min<int64_t>(65536 / (blocks * threads), 255);
}

// A wgmma whose registers exceed a thread's share even at one block per SM (a 256x256 f32
// accumulator at 512 threads fills the whole register file) is an error at the product,
// before ptxas fails on it: the tile, what it needs and what to change.
LogicalResult KernelLowering::checkWgmmaRegisters() {
  auto [mma, need] = wgmmaRegisterNeed();
  int64_t share = registerShare(1, numThreads_);
  if (!mma || need <= share)
    return success();
  auto acc = cast<RankedTensorType>(mma.getType());
  std::string shape;
  llvm::raw_string_ostream os(shape);
  llvm::interleave(acc.getShape(), os, "x");
  os << "x" << acc.getElementType();
  // The widest N that fits at these threads, and the most threads under which it fits.
  int64_t maxN = (share - 32) * 2;
  int64_t fewer = numThreads_;
  while (fewer > 128 && registerShare(1, fewer) < need)
    fewer /= 2;
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel_.getSymName() << "': wgmma on " << shape << " needs "
                          << need << " registers per thread, " << share << " at " << numThreads_ << " threads\n");
  InFlightDiagnostic diag = mma.emitError()
                            << "accumulator tile " << shape << " does not fit in registers: its wgmma keeps "
                            << need - 32 << " accumulator registers per thread live with operands and addresses "
                            << "beside them (about " << need << "), but at " << numThreads_
                            << " threads per block a thread may have " << share << " (65536 per block)";
  diag << "; use a smaller tile (at most " << maxN << " columns at " << numThreads_ << " threads)";
  if (fewer < numThreads_ && registerShare(1, fewer) >= need)
    diag << " or fewer threads (num_threads=" << fewer << ", where the accumulator takes "
         << acc.getNumElements() / fewer << " registers per thread and may spill)";
  return failure();
}

int64_t KernelLowering::wgmmaThreadLimit() {
  int64_t need = wgmmaRegisterNeed().second, threads = 1024;
  while (need && threads > 128 && registerShare(1, threads) < need)
    threads /= 2;
  return threads;
}

// An occupancy whose register share (65536 / (occupancy * threads)) leaves less than the
// wgmma needs is lowered until it fits, with a warning naming both.
int32_t KernelLowering::wgmmaOccupancy(int32_t asked) {
  int64_t need = wgmmaRegisterNeed().second;
  auto share = [&](int32_t blocks) { return 65536 / (int64_t(blocks) * int64_t(numThreads_)); };
  int32_t blocks = asked;
  while (blocks > 1 && share(blocks) < need)
    --blocks;
  if (blocks != asked) {
    kernel_.emitWarning() << "occupancy=" << asked << " leaves " << std::min<int64_t>(share(asked), 255)
                          << " registers per thread at " << numThreads_ << " threads, fewer than its wgmma needs ("
                          << need << "): compiled for occupancy " << blocks;
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] occupancy " << asked << " -> " << blocks << " (wgmma needs " << need
                            << " registers per thread)\n");
  }
  return blocks;
}

} // namespace tile::codegen
