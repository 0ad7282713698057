// Loads and stores addressed in tile space, and element-wise gathers, scatters and atomics.
// Every access is bounds-checked against the array's run-time shape (ragged edges) and
// addressed in 64-bit arithmetic.
//
// Tile loads and stores are vectorised: a thread's run of V consecutive elements
// (TileLayout.h) is accessed in chunks of up to 16 bytes when the array allows it. Strides
// and the base pointer are kernel parameters, unknown at compile time, so whether it does is
// one uniform condition computed per load/store (unit stride along the run, base pointer and
// every other stride multiples of the chunk). Each chunk then takes the vector access when
// that condition holds and the whole chunk is in bounds, else the scalar masked path (ragged
// edges, misaligned or strided views). Folding the uniform condition into each chunk's branch
// instead of branching once per op between a vector copy and a scalar copy of the whole
// access keeps one scalar copy instead of two: the hot path is the same, the code is smaller.

#include "compiler/codegen/lowering/Float8.h"
#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;

namespace tile::codegen {

// The value out-of-bounds elements of a load of `element`s take, in its register type.
static Value paddingValue(OpBuilder &b, Location loc, Type element, mlir::tile::PaddingMode mode) {
  if (auto ft = dyn_cast<FloatType>(element)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    APFloat v = APFloat::getZero(sem);
    if (mode == mlir::tile::PaddingMode::neg_zero)
      v = APFloat::getZero(sem, /*Negative=*/true);
    if (mode == mlir::tile::PaddingMode::nan)
      v = APFloat::getQNaN(sem);
    // (float8_e4m3fn has no infinity: float8Constant rounds one to its NaN, as the interpreter does.)
    if (mode == mlir::tile::PaddingMode::pos_inf)
      v = APFloat::getInf(APFloat::IEEEdouble());
    if (mode == mlir::tile::PaddingMode::neg_inf)
      v = APFloat::getInf(APFloat::IEEEdouble(), /*Negative=*/true);
    if (isFloat8(element))
      return float8Constant(b, loc, v, element);
    Type type = registerType(element);
    if (&v.getSemantics() != &cast<FloatType>(type).getFloatSemantics()) {
      bool lost;
      v.convert(cast<FloatType>(type).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    }
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, v));
  }
  Type type = registerType(element);
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, 0));
}

// Element indices into the array and the in-bounds mask for element `linear` (i32, row-major
// in the tile `shape`) of a tile access; with `width` > 1, the mask covers `width` consecutive
// elements along the tile's last dim.
static SmallVector<Value> accessIndices(KernelLowering &l, KernelLowering::Array &array, ValueRange tileIndices,
                                        std::optional<ArrayRef<int32_t>> order, ArrayRef<int64_t> shape, Value linear,
                                        Value &inBounds, int64_t width = 1) {
  OpBuilder &b = l.b_;
  Location loc = l.loc_;
  SmallVector<Value> local = l.delinearize(linear, shape);
  SmallVector<Value> indices(shape.size());
  inBounds = {};
  for (size_t d = 0; d < shape.size(); ++d) {
    size_t a = order ? static_cast<size_t>((*order)[d]) : d;
    Value tileStart = arith::MulIOp::create(b, loc, l.toI64(l.scalars_.lookup(tileIndices[d])), l.i64(shape[d]));
    Value idx = arith::AddIOp::create(b, loc, tileStart, arith::ExtUIOp::create(b, loc, b.getI64Type(), local[d]));
    indices[a] = idx;
    Value last = idx;
    if (width > 1 && d + 1 == shape.size())
      last = arith::AddIOp::create(b, loc, idx, l.i64(width - 1));
    // Unsigned compare: negative indices are out of bounds too.
    inBounds = l.boolAnd(inBounds, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, last, array.shape[a]));
  }
  return indices;
}

// The array dimension the tile's last dimension runs along.
static size_t runDim(const TileLayout &layout, std::optional<ArrayRef<int32_t>> order) {
  size_t d = layout.shape.size() - 1;
  return order ? static_cast<size_t>((*order)[d]) : d;
}

// Elements per vector access (1: scalar only): a run of V elements in chunks of at most 16
// bytes. Runs start at multiples of V along the last dim and tile offsets are multiples of
// the tile's extent, so a chunk's column is always a multiple of the chunk width (runs of an
// mma accumulator fragment: pairs, TileLayout::runLength).
static int64_t vectorWidth(const TileLayout &layout, Type elt, mlir::tile::ArrayType arrayType,
                           std::optional<ArrayRef<int32_t>> order) {
  int64_t run = layout.runLength();
  if (layout.replicated || run < 2 || layout.shape.empty() || layout.shape.back() % run)
    return 1;
  int64_t width = std::min<int64_t>(run, 16 / elementBytes(elt));
  if (width < 2 || run % width)
    return 1;
  // A static extent shorter than a chunk is never covered by one.
  size_t a = runDim(layout, order);
  if (!arrayType.isDynamicDim(a) && arrayType.getShape()[a] < width)
    return 1;
  return width;
}

// The uniform condition for `width`-element vector accesses: unit stride along the run, and
// the base pointer and every other stride (in bytes) multiples of the access size. A
// dimension of extent 1 only admits index 0, so its stride does not matter (a static extent
// of 1 drops the term).
Value vectorAligned(KernelLowering &l, const KernelLowering::Array &array, mlir::tile::ArrayType arrayType,
                    size_t runDimension, int64_t width) {
  OpBuilder &b = l.b_;
  Location loc = l.loc_;
  auto isZero = [&](Value v) { return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, l.i64(0)); };
  int64_t bytes = width * elementBytes(array.elementType);
  // An aligned argument keeps every access of up to 16 bytes along its last dimension aligned.
  if (array.aligned && runDimension + 1 == array.strides.size() && bytes <= 16)
    return arith::ConstantIntOp::create(b, loc, 1, 1);
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), array.ptr);
  Value ok = isZero(arith::AndIOp::create(b, loc, address, l.i64(bytes - 1)));
  ok = l.boolAnd(ok, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, array.strides[runDimension], l.i64(1)));
  for (size_t d = 0; d < array.strides.size(); ++d) {
    if (d == runDimension || arrayType.getShape()[d] == 1)
      continue;
    Value multiple = isZero(arith::AndIOp::create(b, loc, array.strides[d], l.i64(width - 1)));
    Value unit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, array.shape[d], l.i64(1));
    ok = l.boolAnd(ok, arith::OrIOp::create(b, loc, multiple, unit));
  }
  return ok;
}

// The integer type a vector access of `bytes` moves: 32-bit lanes where possible (what NVPTX
// maps to ld/st.global.v2/v4.b32 for every element type), else one 16-bit word.
static Type accessType(OpBuilder &b, int64_t bytes) {
  if (bytes >= 8)
    return VectorType::get({bytes / 4}, b.getI32Type());
  return b.getIntegerType(bytes * 8);
}

Value KernelLowering::loadTileElement(mlir::tile::LoadOp op, Value linear) {
  Type elt = op.getType().getElementType();
  Value inBounds;
  SmallVector<Value> idx = accessIndices(*this, arrays_[op.getArray()], op.getIndices(), op.getOrder(),
                                         op.getType().getShape(), linear, inBounds);
  Value ptr = elementPointer(arrays_[op.getArray()], idx);
  return ifValue(
      inBounds, registerType(elt), [&] { return loadElement(elt, ptr); },
      [&] { return paddingValue(b_, loc_, elt, op.getPadding()); });
}

Value KernelLowering::padOutOfBounds(mlir::tile::LoadOp op, Value linear, Value value) {
  Value inBounds;
  accessIndices(*this, arrays_[op.getArray()], op.getIndices(), op.getOrder(), op.getType().getShape(), linear,
                inBounds);
  if (!inBounds)
    return value;
  return arith::SelectOp::create(b_, loc_, inBounds, value,
                                 paddingValue(b_, loc_, op.getType().getElementType(), op.getPadding()));
}

LogicalResult KernelLowering::lowerLoad(mlir::tile::LoadOp op) {
  if (op->hasAttr(kPipelineOffsetAttr) || op->hasAttr(kPrefetchOffsetAttr))
    return lowerPipelinedLoad(op);
  Array &array = arrays_[op.getArray()];
  TileLayout layout = layoutOf(op.getType());
  Type elt = op.getType().getElementType();
  auto scalarLoad = [&](int64_t r) { return loadTileElement(op, linearIndex(layout, r)); };
  int64_t width = vectorWidth(layout, elt, op.getArray().getType(), op.getOrder());
  Elements values;
  if (width == 1) {
    for (int64_t r = 0; r < layout.perThread; ++r)
      values.push_back(scalarLoad(r));
    tiles_[op] = values;
    return success();
  }
  Value aligned = vectorAligned(*this, array, op.getArray().getType(), runDim(layout, op.getOrder()), width);
  int64_t bytes = width * elementBytes(elt);
  Type storage = storageType(elt);
  for (int64_t r = 0; r < layout.perThread; r += width) {
    Value inBounds;
    SmallVector<Value> idx = accessIndices(*this, array, op.getIndices(), op.getOrder(), layout.shape,
                                           linearIndex(layout, r), inBounds, width);
    auto ifOp = scf::IfOp::create(b_, loc_, SmallVector<Type>(width, registerType(elt)), boolAnd(aligned, inBounds),
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b_);
      b_.setInsertionPointToStart(ifOp.thenBlock());
      Value raw = LLVM::LoadOp::create(b_, loc_, accessType(b_, bytes), elementPointer(array, idx), bytes);
      Value vec = LLVM::BitcastOp::create(b_, loc_, VectorType::get({width}, storage), raw);
      SmallVector<Value> lanes;
      for (int64_t i = 0; i < width; ++i) {
        Value v = LLVM::ExtractElementOp::create(b_, loc_, vec, i32(i));
        if (elt.isInteger(1))
          v = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ne, v,
                                    arith::ConstantIntOp::create(b_, loc_, 0, 8));
        if (elt.isTF32())
          v = roundToTf32(v);
        lanes.push_back(v);
      }
      scf::YieldOp::create(b_, loc_, lanes);
      b_.setInsertionPointToStart(ifOp.elseBlock());
      SmallVector<Value> scalars;
      OpaqueScalars cold(*this, op.getIndices());
      for (int64_t i = 0; i < width; ++i)
        scalars.push_back(scalarLoad(r + i));
      scf::YieldOp::create(b_, loc_, scalars);
    }
    llvm::append_range(values, ifOp.getResults());
  }
  tiles_[op] = values;
  return success();
}

Value KernelLowering::tileInside(const Array &array, ValueRange tileIndices, ArrayRef<int64_t> shape) {
  Value inside;
  for (auto [d, extent] : llvm::enumerate(shape)) {
    Value start = arith::MulIOp::create(b_, loc_, toI64(scalars_.lookup(tileIndices[d])), i64(extent));
    // Unsigned compares: a negative start is outside.
    Value startIn = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, start, array.shape[d]);
    Value endIn = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ule,
                                        arith::AddIOp::create(b_, loc_, start, i64(extent)), array.shape[d]);
    inside = boolAnd(inside, boolAnd(startIn, endIn));
  }
  return inside;
}

// Whether a store of `layout` can go out in 16-byte chunks after a transpose across each quad
// of lanes (storeQuadTransposed): 16-bit Tensor Core accumulators whose warps each hold a
// multiple of four n-tiles, columns along the array's last dim.
static bool quadTransposable(const TileLayout &layout, Type elt, std::optional<ArrayRef<int32_t>> order) {
  if (!layout.isMma() || order || elementBytes(elt) != 2)
    return false;
  auto [mDim, nDim] = layout.mmaMatrixDims();
  if (mDim < 0 || nDim + 1 != static_cast<int64_t>(layout.shape.size()))
    return false;
  return (layout.shape[nDim] / 8 / layout.mmaWarps[2]) % 4 == 0;
}

// A 16-bit accumulator fragment gives each lane two neighbouring columns of a row per n-tile
// (4 bytes): stored as they are, a warp writes half of each 32-byte sector and the other half
// in the next store. Four n-tiles in a row are a 4x4 matrix of 32-bit words over the four
// lanes of a quad (lane p holds columns 2p, 2p+1 of each); transposed with two shfl.bfly
// rounds, lane q holds the 8 columns of n-tile q and writes them as one 16-byte store, whole
// sectors. The caller has checked that the tile lies inside the array and is aligned for
// 16-byte accesses; every lane of the warps runs this (the store is block-uniform).
static void storeQuadTransposed(KernelLowering &l, mlir::tile::StoreOp op, KernelLowering::Array &array,
                                const TileLayout &layout, ArrayRef<Value> values) {
  OpBuilder &b = l.b_;
  Location loc = l.loc_;
  Type i32 = b.getI32Type();
  auto pairType = VectorType::get({2}, storageType(op.getValue().getType().getElementType()));
  auto word = [&](int64_t r) -> Value {
    Value v = LLVM::PoisonOp::create(b, loc, pairType);
    v = LLVM::InsertElementOp::create(b, loc, v, values[r], l.i32(0));
    v = LLVM::InsertElementOp::create(b, loc, v, values[r + 1], l.i32(1));
    return LLVM::BitcastOp::create(b, loc, i32, v);
  };
  Value quad = arith::AndIOp::create(b, loc, l.tid_, l.i32(3));
  auto bitSet = [&](int64_t bit) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, arith::AndIOp::create(b, loc, quad, l.i32(bit)),
                                 l.i32(0));
  };
  // One round of the transpose: the lanes `mask` apart swap the 2x2 blocks of words `mask`
  // apart; a lane with the bit clear keeps the lower word of each pair and receives the
  // partner's lower one into the upper slot, a lane with it set the reverse.
  auto exchange = [&](SmallVector<Value, 4> &w, int64_t mask) {
    Value upper = bitSet(mask);
    for (int64_t base : {int64_t(0), 3 - mask}) {
      Value lo = w[base], hi = w[base + mask];
      Value send = arith::SelectOp::create(b, loc, upper, lo, hi);
      Value got =
          NVVM::ShflOp::create(b, loc, i32, l.i32(-1), send, l.i32(mask), l.i32(31), NVVM::ShflKind::bfly, UnitAttr());
      w[base] = arith::SelectOp::create(b, loc, upper, got, lo);
      w[base + mask] = arith::SelectOp::create(b, loc, upper, hi, got);
    }
  };
  auto [mDim, nDim] = layout.mmaMatrixDims();
  int64_t nTiles = layout.shape[nDim] / 8 / layout.mmaWarps[2], regsPerPair = 4 * nTiles;
  auto vecType = VectorType::get({4}, i32);
  // A lane's first column is 2q in n-tile 4J; after the transpose it is column 0 of n-tile
  // 4J + q, 6q further along the same row.
  Value shift = arith::MulIOp::create(b, loc, quad, l.i32(6));
  for (int64_t pair = 0; pair < layout.perThread / regsPerPair; ++pair)
    for (int64_t block = 0; block < nTiles / 4; ++block)
      for (int64_t half = 0; half < 2; ++half) {
        int64_t first = pair * regsPerPair + block * 16 + 2 * half;
        SmallVector<Value, 4> w;
        for (int64_t j = 0; j < 4; ++j)
          w.push_back(word(first + 4 * j));
        exchange(w, 1);
        exchange(w, 2);
        Value linear = arith::AddIOp::create(b, loc, l.linearIndex(layout, first), shift);
        Value inBounds;
        SmallVector<Value> idx = accessIndices(l, array, op.getIndices(), std::nullopt, layout.shape, linear, inBounds,
                                               /*width=*/8);
        Value vec = LLVM::PoisonOp::create(b, loc, vecType);
        for (int64_t i = 0; i < 4; ++i)
          vec = LLVM::InsertElementOp::create(b, loc, vec, w[i], l.i32(i));
        LLVM::StoreOp::create(b, loc, vec, l.elementPointer(array, idx), /*alignment=*/16);
      }
}

LogicalResult KernelLowering::lowerStore(mlir::tile::StoreOp op) {
  if (op->hasAttr(kTmaAttr))
    return lowerTmaStore(op);
  Array &array = arrays_[op.getArray()];
  TileLayout layout = layoutOf(op.getValue().getType());
  Type elt = op.getValue().getType().getElementType();
  // Copy: lowering other ops may grow the map.
  Elements values = tiles_.lookup(op.getValue());
  // Register r's element; `checked`: only when this thread owns it and it is inside the array.
  auto scalarStore = [&](int64_t r, bool checked) {
    Value inBounds;
    SmallVector<Value> idx =
        accessIndices(*this, array, op.getIndices(), op.getOrder(), layout.shape, linearIndex(layout, r), inBounds);
    Value ptr = elementPointer(array, idx);
    if (checked)
      ifThen(boolAnd(owns(layout, r), inBounds), [&] { storeElement(values[r], ptr); });
    else
      storeElement(values[r], ptr);
  };
  int64_t width = vectorWidth(layout, elt, op.getArray().getType(), op.getOrder());
  if (width == 1) {
    for (int64_t r = 0; r < layout.perThread; ++r)
      scalarStore(r, /*checked=*/true);
    return success();
  }
  // Vector layouts are never replicated: every thread owns its elements.
  Value aligned = vectorAligned(*this, array, op.getArray().getType(), runDim(layout, op.getOrder()), width);
  int64_t bytes = width * elementBytes(elt);
  Type storage = storageType(elt);
  auto vecType = VectorType::get({width}, storage);
  // Each run: a vector store when `checked` finds it aligned and inside the array, else the
  // elements one by one; unchecked, a vector store.
  auto storeRuns = [&](bool checked) {
    for (int64_t r = 0; r < layout.perThread; r += width) {
      Value inBounds;
      SmallVector<Value> idx = accessIndices(*this, array, op.getIndices(), op.getOrder(), layout.shape,
                                             linearIndex(layout, r), inBounds, width);
      OpBuilder::InsertionGuard guard(b_);
      scf::IfOp ifOp;
      if (checked) {
        ifOp = scf::IfOp::create(b_, loc_, TypeRange{}, boolAnd(aligned, inBounds), /*withElseRegion=*/true);
        b_.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      }
      Value vec = LLVM::PoisonOp::create(b_, loc_, vecType);
      for (int64_t i = 0; i < width; ++i) {
        Value v = values[r + i];
        if (elt.isInteger(1))
          v = arith::ExtUIOp::create(b_, loc_, b_.getI8Type(), v);
        vec = LLVM::InsertElementOp::create(b_, loc_, vec, v, i32(i));
      }
      Value raw = LLVM::BitcastOp::create(b_, loc_, accessType(b_, bytes), vec);
      LLVM::StoreOp::create(b_, loc_, raw, elementPointer(array, idx), bytes);
      if (!checked)
        continue;
      b_.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      OpaqueScalars cold(*this, op.getIndices());
      for (int64_t i = 0; i < width; ++i)
        scalarStore(r + i, /*checked=*/true);
    }
  };
  // A tile wholly inside the array (one uniform check; the common case, every tile but the
  // ragged ones at the edges) stores its runs without a bounds check each: an accumulator
  // stored from its fragments makes many small stores (fwd_pass_state's state, every chunk).
  if (op.getOrder()) {
    storeRuns(/*checked=*/true);
    return success();
  }
  // Inside but not aligned for vectors (a strided view, such as a transposed one): element
  // stores, still without bounds checks.
  Value inside = tileInside(array, op.getIndices(), layout.shape);
  OpBuilder::InsertionGuard guard(b_);
  if (quadTransposable(layout, elt, op.getOrder())) {
    Value aligned16 = vectorAligned(*this, array, op.getArray().getType(), runDim(layout, op.getOrder()), 8);
    auto wide = scf::IfOp::create(b_, loc_, TypeRange{}, boolAnd(aligned16, inside), /*withElseRegion=*/true);
    b_.setInsertionPoint(wide.thenBlock()->getTerminator());
    storeQuadTransposed(*this, op, array, layout, values);
    b_.setInsertionPoint(wide.elseBlock()->getTerminator());
  }
  auto whole = scf::IfOp::create(b_, loc_, TypeRange{}, boolAnd(aligned, inside), /*withElseRegion=*/true);
  b_.setInsertionPoint(whole.thenBlock()->getTerminator());
  storeRuns(/*checked=*/false);
  b_.setInsertionPoint(whole.elseBlock()->getTerminator());
  auto strided = scf::IfOp::create(b_, loc_, TypeRange{}, inside, /*withElseRegion=*/true);
  b_.setInsertionPoint(strided.thenBlock()->getTerminator());
  // (Vector layouts are never replicated: every thread owns its elements.)
  for (int64_t r = 0; r < layout.perThread; ++r)
    scalarStore(r, /*checked=*/false);
  b_.setInsertionPoint(strided.elseBlock()->getTerminator());
  storeRuns(/*checked=*/true);
  return success();
}

SmallVector<Value> KernelLowering::elementIndices(const Array &array, ValueRange indexTiles, Value mask, int64_t r,
                                                  Value &ok) {
  SmallVector<Value> idx;
  ok = mask ? tiles_[mask][r] : Value();
  for (auto [d, t] : llvm::enumerate(indexTiles)) {
    Value i = toI64(tiles_[t][r]);
    idx.push_back(i);
    // Unsigned compare: negative indices are out of bounds too.
    ok = boolAnd(ok, arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, i, array.shape[d]));
  }
  return idx;
}

LogicalResult KernelLowering::lowerElementAccess(Operation *op) {
  auto gather = dyn_cast<mlir::tile::GatherOp>(op);
  auto atomic = dyn_cast<mlir::tile::AtomicAddOp>(op);
  Value arrayValue = op->getOperand(gather ? 0 : 1);
  Array &array = arrays_[arrayValue];
  ValueRange indexTiles = gather   ? gather.getIndices()
                          : atomic ? atomic.getIndices()
                                   : cast<mlir::tile::ScatterOp>(op).getIndices();
  Value mask = gather ? gather.getMask() : atomic ? atomic.getMask() : cast<mlir::tile::ScatterOp>(op).getMask();
  Type dataType = gather ? gather.getType() : op->getOperand(0).getType();
  TileLayout layout = layoutOf(dataType);
  Type elt = cast<RankedTensorType>(dataType).getElementType();
  Elements results;
  for (int64_t r = 0; r < layout.perThread; ++r) {
    Value ok;
    SmallVector<Value> idx = elementIndices(array, indexTiles, mask, r, ok);
    Value ptr = elementPointer(array, idx);
    if (gather) {
      Value pad = gather.getPadding() ? scalars_.lookup(gather.getPadding()) : zeroOf(elt);
      results.push_back(ifValue(
          ok, registerType(elt), [&] { return loadElement(elt, ptr); }, [&] { return pad; }));
      continue;
    }
    Value value = tiles_[op->getOperand(0)][r];
    ok = boolAnd(owns(layout, r), ok);
    if (!atomic) {
      ifThen(ok, [&] { storeElement(value, ptr); });
      continue;
    }
    auto kind = isa<FloatType>(elt) ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
    results.push_back(ifValue(
        ok, elt, [&] { return LLVM::AtomicRMWOp::create(b_, loc_, kind, ptr, value, LLVM::AtomicOrdering::monotonic); },
        [&] { return zeroOf(elt); }));
  }
  if (gather) {
    tiles_[op->getResult(0)] = results;
  } else if (atomic) {
    shareOwnersValues(results, layout, elt);
    tiles_[op->getResult(0)] = results;
  }
  return success();
}

} // namespace tile::codegen
