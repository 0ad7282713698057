// tile.reduce and tile.scan under the canonical layout (TileLayout.h).
//
// Shapes and the thread count are powers of two, so each bit of an element's row-major index
// comes from one bit of the register index r or of the thread id t: e = [r_hi | t | r_lo]
// with log2(V) bits in r_lo, or e = t mod N when the tile is replicated. An axis is a
// contiguous range of e's bits, so its position bits split, from low to high, into register
// bits below the thread bits, lane bits, warp bits and register bits above the thread bits.
//
// Reductions combine over those bits level by level: registers within the thread, lanes with
// shfl.sync.bfly (every lane ends with the result), warps through shared memory (one partial
// per warp and output, each thread combines them). The results reach the canonical layout of
// the result either in place, when its bits line up, or through shared memory (one write per
// output element).
//
// Scans go up the same levels in position order, keeping each element's inclusive prefix
// within its block and the block's total: a sequential scan within a run of registers,
// Kogge-Stone over the lane bits (shfl.sync.up, or down when reversed), warp totals through
// shared memory, then the register bits above the threads within the thread. No data leaves
// the registers except the lane and warp totals.

#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tile::codegen {
namespace {

using mlir::tile::ReduceKind;

constexpr int64_t kWarpSize = 32;

// Where one bit of the linear element index comes from: a bit of the register index or of the
// thread id.
struct BitSource {
  bool reg;
  int64_t bit;
};

bool isPowerOfTwoLayout(const TileLayout &l) {
  return llvm::isPowerOf2_64(l.numElements) && llvm::isPowerOf2_64(l.numThreads) && llvm::isPowerOf2_64(l.vector) &&
         llvm::isPowerOf2_64(l.perThread) && l.numThreads >= kWarpSize;
}

// The source of each bit of e, lowest first (the formula in TileLayout.h, read bit by bit).
SmallVector<BitSource> elementBits(const TileLayout &l) {
  int64_t n = llvm::Log2_64(l.numElements), v = llvm::Log2_64(l.vector), t = llvm::Log2_64(l.numThreads);
  SmallVector<BitSource> bits;
  for (int64_t k = 0; k < n; ++k) {
    if (l.replicated)
      bits.push_back({false, k});
    else if (k < v)
      bits.push_back({true, k});
    else if (k < v + t)
      bits.push_back({false, k - v});
    else
      bits.push_back({true, k - t});
  }
  return bits;
}

// The bits of e that hold the position along an axis, and where they live.
struct AxisBits {
  int64_t lo = 0, count = 0; // e bits [lo, lo + count)
  int64_t lowRegMask = 0;    // register bits below the thread bits (within a run)
  int64_t highRegMask = 0;   // register bits above them
  int64_t laneMask = 0, warpMask = 0;
  int64_t regMask() const { return lowRegMask | highRegMask; }
  int64_t threadMask() const { return laneMask | warpMask; }
};

AxisBits axisBits(const TileLayout &l, int64_t axis) {
  AxisBits a;
  int64_t inner = 1;
  for (size_t d = axis + 1; d < l.shape.size(); ++d)
    inner *= l.shape[d];
  a.lo = llvm::Log2_64(inner);
  a.count = llvm::Log2_64(l.shape[axis]);
  SmallVector<BitSource> bits = elementBits(l);
  int64_t runBits = llvm::Log2_64(l.vector);
  for (int64_t k = a.lo; k < a.lo + a.count; ++k) {
    int64_t m = int64_t(1) << bits[k].bit;
    if (bits[k].reg)
      (bits[k].bit < runBits ? a.lowRegMask : a.highRegMask) |= m;
    else
      (bits[k].bit < llvm::Log2_64(kWarpSize) ? a.laneMask : a.warpMask) |= m;
  }
  return a;
}

// Places the low bits of `i` at the set bits of `mask`, lowest first.
int64_t spread(int64_t i, int64_t mask) {
  int64_t out = 0;
  for (int64_t m = mask; m && i; m &= m - 1, i >>= 1)
    if (i & 1)
      out |= m & -m;
  return out;
}

// The registers `base | spread(i, mask)` in scan order: ascending positions, or descending.
SmallVector<int64_t> membersInOrder(int64_t base, int64_t mask, bool reverse) {
  SmallVector<int64_t> out;
  int64_t n = int64_t(1) << llvm::popcount(static_cast<uint64_t>(mask));
  for (int64_t i = 0; i < n; ++i)
    out.push_back(base | spread(reverse ? n - 1 - i : i, mask));
  return out;
}

// The registers with none of `mask`'s bits set.
SmallVector<int64_t> basesOf(int64_t perThread, int64_t mask) {
  SmallVector<int64_t> out;
  for (int64_t r = 0; r < perThread; ++r)
    if (!(r & mask))
      out.push_back(r);
  return out;
}

// acc <op> v for a reduction kind (not the arg* kinds). Every kind is commutative, so lanes
// that exchange partials compute bit-identical results.
Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value acc, Value v) {
  bool f = isa<FloatType>(acc.getType());
  switch (kind) {
  case ReduceKind::sum:
    return f ? Value(arith::AddFOp::create(b, loc, acc, v)) : Value(arith::AddIOp::create(b, loc, acc, v));
  case ReduceKind::prod:
    return f ? Value(arith::MulFOp::create(b, loc, acc, v)) : Value(arith::MulIOp::create(b, loc, acc, v));
  // NaN propagates and -0 < +0, as in the interpreter.
  case ReduceKind::max:
    return f ? Value(arith::MaximumFOp::create(b, loc, acc, v)) : Value(arith::MaxSIOp::create(b, loc, acc, v));
  case ReduceKind::min:
    return f ? Value(arith::MinimumFOp::create(b, loc, acc, v)) : Value(arith::MinSIOp::create(b, loc, acc, v));
  default:
    return acc;
  }
}

// One lane's value from a shfl.sync over the full warp (every thread of the block runs it);
// narrower types travel in an i32, 64-bit ones as two halves.
Value shuffle(KernelLowering &l, NVVM::ShflKind kind, Value v, Value offset) {
  OpBuilder &b = l.b_;
  Location loc = l.loc_;
  Type i32 = b.getI32Type();
  // mask_and_clamp: no sub-warp segments; up clamps at lane 0, the others at lane 31.
  int64_t clamp = kind == NVVM::ShflKind::up ? 0 : kWarpSize - 1;
  auto shfl32 = [&](Value x) -> Value {
    return NVVM::ShflOp::create(b, loc, x.getType(), l.i32(-1), x, offset, l.i32(clamp), kind, UnitAttr());
  };
  Type type = v.getType();
  if (type.isInteger(32) || type.isF32())
    return shfl32(v);
  unsigned width = type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(width);
  Value bits = isa<FloatType>(type) ? Value(arith::BitcastOp::create(b, loc, intType, v)) : v;
  Value result;
  if (width < 32) {
    result = arith::TruncIOp::create(b, loc, intType, shfl32(arith::ExtUIOp::create(b, loc, i32, bits)));
  } else {
    Value lo = arith::TruncIOp::create(b, loc, i32, bits);
    Value hi = arith::TruncIOp::create(b, loc, i32, arith::ShRUIOp::create(b, loc, bits, l.i64(32)));
    Value newLo = arith::ExtUIOp::create(b, loc, intType, shfl32(lo));
    Value newHi = arith::ExtUIOp::create(b, loc, intType, shfl32(hi));
    result = arith::OrIOp::create(b, loc, arith::ShLIOp::create(b, loc, newHi, l.i64(32)), newLo);
  }
  return isa<FloatType>(type) ? Value(arith::BitcastOp::create(b, loc, type, result)) : result;
}

Value bitAnd(KernelLowering &l, Value v, int64_t mask) { return arith::AndIOp::create(l.b_, l.loc_, v, l.i32(mask)); }

// Whether the thread id has none of `mask`'s bits (null when the mask is empty: always).
Value noneOf(KernelLowering &l, int64_t mask) {
  if (!mask)
    return {};
  return arith::CmpIOp::create(l.b_, l.loc_, arith::CmpIPredicate::eq, bitAnd(l, l.tid_, mask), l.i32(0));
}

// `v` with the bits of a contiguous mask taken out (the bits above move down).
Value dropBits(KernelLowering &l, Value v, int64_t mask) {
  if (!mask)
    return v;
  int64_t first = llvm::countr_zero(static_cast<uint64_t>(mask)), count = llvm::popcount(static_cast<uint64_t>(mask));
  Value above = arith::ShRUIOp::create(l.b_, l.loc_, v, l.i32(first + count));
  return arith::OrIOp::create(l.b_, l.loc_, bitAnd(l, v, (int64_t(1) << first) - 1),
                              arith::ShLIOp::create(l.b_, l.loc_, above, l.i32(first)));
}

// Shared-memory slots for one partial per warp: the lanes of a lane group hold the same
// partial, so a slot is a thread id without the axis's lane bits, `perGroup` per register group.
struct WarpSlots {
  WarpSlots(KernelLowering &l, const AxisBits &axis)
      : l(l), axis(axis), laneBits(llvm::popcount(static_cast<uint64_t>(axis.laneMask))),
        perGroup(l.numThreads_ >> laneBits) {}

  // Where this thread writes (when it is the first lane of its group).
  Value own(int64_t group) {
    return arith::AddIOp::create(l.b_, l.loc_, dropBits(l, l.tid_, axis.laneMask), l.i32(group * perGroup));
  }
  // Where warp `w` (the w-th combination of the axis's warp bits) wrote this thread's partial.
  Value ofWarp(int64_t group, int64_t w) {
    if (!readBase)
      readBase = dropBits(l, bitAnd(l, l.tid_, ~axis.threadMask()), axis.laneMask);
    return arith::AddIOp::create(l.b_, l.loc_, readBase,
                                 l.i32(group * perGroup + (spread(w, axis.warpMask) >> laneBits)));
  }

  KernelLowering &l;
  const AxisBits &axis;
  int64_t laneBits, perGroup;
  Value readBase;
};

// The bits of the thread id under a contiguous mask, as a number.
Value field(KernelLowering &l, int64_t mask) {
  int64_t first = llvm::countr_zero(static_cast<uint64_t>(mask));
  Value shifted = first ? Value(arith::ShRUIOp::create(l.b_, l.loc_, l.tid_, l.i32(first))) : l.tid_;
  return bitAnd(l, shifted, mask >> first);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// A partial reduction: the value, and for argmax/argmin its position along the axis.
struct Partial {
  Value value, index;
};

class Reducer {
public:
  Reducer(KernelLowering &l, ReduceKind kind) : l(l), kind(kind) {}

  bool isArg() const { return kind == ReduceKind::argmax || kind == ReduceKind::argmin; }

  // Commutative and associative: for arg* a total order (NaN above every value, then larger
  // values for argmax, smaller for argmin, then smaller positions), so the first position of
  // the extreme wins whatever the combining order, and the first NaN wins over everything,
  // as in the interpreter.
  Partial combine(Partial a, Partial c) {
    OpBuilder &b = l.b_;
    Location loc = l.loc_;
    if (!isArg())
      return {codegen::combine(b, loc, kind, a.value, c.value), {}};
    bool isMax = kind == ReduceKind::argmax;
    Value earlier = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, c.index, a.index);
    Value takeC;
    if (isa<FloatType>(a.value.getType())) {
      // Ordered compares are false with a NaN on either side.
      Value more = arith::CmpFOp::create(b, loc, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, c.value,
                                         a.value);
      Value same = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, c.value, a.value);
      Value ordered = arith::OrIOp::create(b, loc, more, arith::AndIOp::create(b, loc, same, earlier));
      Value cIsNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, c.value, c.value);
      Value aIsNumber = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, a.value, a.value);
      Value nanWins = arith::AndIOp::create(b, loc, cIsNaN, arith::OrIOp::create(b, loc, aIsNumber, earlier));
      takeC = arith::OrIOp::create(b, loc, ordered, nanWins);
    } else {
      Value more = arith::CmpIOp::create(b, loc, isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt, c.value,
                                         a.value);
      Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, c.value, a.value);
      takeC = arith::OrIOp::create(b, loc, more, arith::AndIOp::create(b, loc, same, earlier));
    }
    return {arith::SelectOp::create(b, loc, takeC, c.value, a.value),
            arith::SelectOp::create(b, loc, takeC, c.index, a.index)};
  }

  Partial shuffleXor(Partial p, int64_t laneBit) {
    Value offset = l.i32(laneBit);
    return {shuffle(l, NVVM::ShflKind::bfly, p.value, offset),
            isArg() ? shuffle(l, NVVM::ShflKind::bfly, p.index, offset) : Value()};
  }

  KernelLowering &l;
  ReduceKind kind;
};

} // namespace

LogicalResult KernelLowering::lowerReduce(mlir::tile::ReduceOp op) {
  auto inType = op.getInput().getType();
  auto outType = op.getType();
  TileLayout in = layoutOf(inType), out = layoutOf(outType);
  if (out.isMmaRows())
    return lowerReduceToMmaRows(op);
  if (in.isMma() || in.isMmaRows())
    return op.emitError("internal error: a reduction of a tile in ") << inType.getEncoding() << " into " << outType;
  if (!isPowerOfTwoLayout(in) || !isPowerOfTwoLayout(out))
    return op.emitError("internal error: reductions need power-of-two layouts");
  Type elt = inType.getElementType(), resultElt = outType.getElementType();
  Reducer red(*this, op.getKind());
  AxisBits axis = axisBits(in, op.getAxis());
  int64_t extent = inType.getDimSize(op.getAxis());

  const Elements &input = tiles_[op.getInput()];
  SmallVector<Partial> parts;
  for (int64_t r = 0; r < in.perThread; ++r) {
    Value index;
    if (red.isArg()) {
      Value e = linearIndex(in, r);
      index = bitAnd(*this, arith::ShRUIOp::create(b_, loc_, e, i32(axis.lo)), extent - 1);
    }
    parts.push_back({input[r], index});
  }

  // Registers: fold each axis bit into the register with that bit clear.
  int64_t folded = 0;
  for (int64_t bit = 1; bit < in.perThread; bit <<= 1) {
    if (!(axis.regMask() & bit))
      continue;
    for (int64_t r : basesOf(in.perThread, folded | bit))
      parts[r] = red.combine(parts[r], parts[r | bit]);
    folded |= bit;
  }
  SmallVector<int64_t> groups = basesOf(in.perThread, axis.regMask());

  // Lanes: butterflies leave every lane of a group with the group's result.
  for (int64_t bit = 1; bit < kWarpSize; bit <<= 1)
    if (axis.laneMask & bit)
      for (int64_t g : groups)
        parts[g] = red.combine(parts[g], red.shuffleXor(parts[g], bit));

  // Warps: one partial per warp and output through shared memory; every thread combines them.
  int64_t outOffset = 0;
  if (axis.warpMask) {
    WarpSlots slots(*this, axis);
    int64_t count = static_cast<int64_t>(groups.size()) * slots.perGroup;
    int64_t indexOffset = alignTo16(count * elementBytes(elt));
    outOffset = alignTo16(indexOffset + (red.isArg() ? count * 4 : 0));
    reserveShared(outOffset);
    barrier();
    ifThen(noneOf(*this, axis.laneMask), [&] {
      for (auto [gi, g] : llvm::enumerate(groups)) {
        Value slot = slots.own(gi);
        storeElement(parts[g].value, sharedPointer(elt, 0, slot));
        if (red.isArg())
          storeElement(parts[g].index, sharedPointer(b_.getI32Type(), indexOffset, slot));
      }
    });
    barrier();
    int64_t warps = int64_t(1) << llvm::popcount(static_cast<uint64_t>(axis.warpMask));
    for (auto [gi, g] : llvm::enumerate(groups)) {
      Partial acc;
      for (int64_t w = 0; w < warps; ++w) {
        Value slot = slots.ofWarp(gi, w);
        Partial p{loadElement(elt, sharedPointer(elt, 0, slot)),
                  red.isArg() ? loadElement(b_.getI32Type(), sharedPointer(b_.getI32Type(), indexOffset, slot))
                              : Value()};
        acc = w == 0 ? p : red.combine(acc, p);
      }
      parts[g] = acc;
    }
  }
  auto resultOf = [&](int64_t g) { return red.isArg() ? parts[g].index : parts[g].value; };

  // Thread t now holds, in register group g, the output whose bits are e's off the axis.
  SmallVector<BitSource> inBits = elementBits(in), outBits = elementBits(out), held;
  for (int64_t k = 0; k < static_cast<int64_t>(inBits.size()); ++k)
    if (k < axis.lo || k >= axis.lo + axis.count)
      held.push_back(inBits[k]);
  bool inPlace = held.size() == outBits.size();
  for (size_t k = 0; inPlace && k < held.size(); ++k)
    inPlace = held[k].reg == outBits[k].reg && (held[k].reg || held[k].bit == outBits[k].bit);
  Elements values;
  if (inPlace) {
    for (int64_t r = 0; r < out.perThread; ++r) {
      int64_t g = 0;
      for (size_t k = 0; k < held.size(); ++k)
        if (outBits[k].reg && ((r >> outBits[k].bit) & 1))
          g |= int64_t(1) << held[k].bit;
      values.push_back(resultOf(g));
    }
    tiles_[op] = values;
    return success();
  }

  // Otherwise through shared memory: the thread with the axis (and replica) bits clear writes
  // each output once.
  reserveShared(outOffset + out.numElements * elementBytes(resultElt));
  if (!axis.warpMask)
    barrier();
  Value writer = noneOf(*this, axis.threadMask());
  if (in.replicated)
    writer = boolAnd(writer, arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, tid_, i32(in.numElements)));
  ifThen(writer, [&] {
    for (int64_t g : groups) {
      // The output index: e with the axis bits removed.
      Value e = linearIndex(in, g);
      Value below = bitAnd(*this, e, (int64_t(1) << axis.lo) - 1);
      Value above = arith::ShRUIOp::create(b_, loc_, e, i32(axis.lo + axis.count));
      Value o = arith::OrIOp::create(b_, loc_, below, arith::ShLIOp::create(b_, loc_, above, i32(axis.lo)));
      storeElement(resultOf(g), sharedPointer(resultElt, outOffset, o));
    }
  });
  barrier();
  for (int64_t r = 0; r < out.perThread; ++r)
    values.push_back(readShared(resultElt, outOffset, linearIndex(out, r)));
  tiles_[op] = values;
  return success();
}

// Each thread folds the columns its fragments hold of each row (two per n-tile), then the 4
// lanes of a quad, which hold the row's other columns, exchange with two butterflies; every
// lane ends with the row's result, as #tile.mma_rows holds it. The registers fold pairwise, so
// the dependency chain is log2 of their count long.
LogicalResult KernelLowering::lowerReduceToMmaRows(mlir::tile::ReduceOp op) {
  TileLayout in = layoutOf(op.getInput().getType()), out = layoutOf(op.getType());
  auto [mDim, nDim] = in.mmaMatrixDims();
  Reducer red(*this, op.getKind());
  if (!in.isMma() || !llvm::equal(in.mmaWarps, out.mmaWarps) || in.mmaWarps[2] != 1 || red.isArg() ||
      static_cast<int64_t>(op.getAxis()) != nDim ||
      op.getType().getElementType() != op.getInput().getType().getElementType())
    return op.emitError("internal error: #tile.mma_rows is the result of a max, min, sum or product along the "
                        "columns of a #tile.mma accumulator with one warp along N");
  int64_t nPerWarp = in.shape[nDim] / 8;
  const Elements &input = tiles_[op.getInput()];
  Elements values;
  for (int64_t r = 0; r < out.perThread; ++r) {
    int64_t pair = r / 2, half = r % 2;
    SmallVector<Partial> parts;
    for (int64_t j = 0; j < nPerWarp; ++j)
      for (int64_t odd = 0; odd < 2; ++odd)
        parts.push_back({input[(pair * nPerWarp + j) * 4 + half * 2 + odd], {}});
    for (size_t width = 1; width < parts.size(); width *= 2)
      for (size_t k = 0; k + width < parts.size(); k += 2 * width)
        parts[k] = red.combine(parts[k], parts[k + width]);
    Partial row = parts[0];
    for (int64_t bit : {1, 2})
      row = red.combine(row, red.shuffleXor(row, bit));
    values.push_back(row.value);
  }
  tiles_[op] = values;
  return success();
}

// Register r of the accumulator tile holds a column of row (pair, upper or lower half), which is
// register 2 * pair + half of the rows tile (the same thread holds it).
LogicalResult KernelLowering::lowerBroadcastMmaRows(mlir::tile::BroadcastOp op) {
  TileLayout in = layoutOf(op.getInput().getType()), out = layoutOf(op.getType());
  if (!out.isMma() || !llvm::equal(in.mmaWarps, out.mmaWarps) ||
      std::get<0>(out.mmaMatrices()) != in.shape[in.shape.size() - 2] || out.shape.size() != in.shape.size())
    return op.emitError("internal error: a broadcast of #tile.mma_rows goes to the columns of the same accumulator "
                        "layout, not ")
           << op.getType();
  auto [mDim, nDim] = out.mmaMatrixDims();
  int64_t nPerWarp = out.shape[nDim] / 8 / out.mmaWarps[2];
  const Elements &input = tiles_[op.getInput()];
  Elements values;
  for (int64_t r = 0; r < out.perThread; ++r)
    values.push_back(input[2 * (r / (4 * nPerWarp)) + (r % 4 >= 2)]);
  tiles_[op] = values;
  return success();
}

//===----------------------------------------------------------------------===//
// Scans
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerScan(mlir::tile::ScanOp op) {
  auto type = op.getType();
  TileLayout layout = layoutOf(type);
  if (!isPowerOfTwoLayout(layout))
    return op.emitError("internal error: scans need power-of-two layouts");
  Type elt = type.getElementType();
  ReduceKind kind = op.getKind() == mlir::tile::ScanKind::cumsum ? ReduceKind::sum : ReduceKind::prod;
  bool reverse = op.getReverse();
  AxisBits axis = axisBits(layout, op.getAxis());
  int64_t P = layout.perThread;
  // `earlier` holds positions before `later` in scan order.
  auto comb = [&](Value earlier, Value later) { return combine(b_, loc_, kind, earlier, later); };

  // pre: each element's inclusive prefix within its block; tot: its block's total. Blocks grow
  // level by level until they span the axis.
  const Elements &x = tiles_[op.getInput()];
  Elements pre(x.begin(), x.end()), tot(P);
  // The registers of the block `base` heads (the same bits outside the run's axis bits).
  auto block = [&](int64_t base) { return membersInOrder(base, axis.lowRegMask, reverse); };
  SmallVector<int64_t> heads = basesOf(P, axis.lowRegMask);

  // Registers within a run: sequentially.
  for (int64_t base : heads) {
    Value acc;
    SmallVector<int64_t> members = block(base);
    for (int64_t m : members)
      pre[m] = acc = acc ? comb(acc, x[m]) : x[m];
    for (int64_t m : members)
      tot[m] = acc;
  }

  // Adds the total of the preceding blocks, where there are any, to a block's elements.
  auto extend = [&](int64_t base, Value hasBefore, Value before, Value total) {
    for (int64_t m : block(base)) {
      Value extended = comb(before, pre[m]);
      pre[m] = hasBefore ? Value(arith::SelectOp::create(b_, loc_, hasBefore, extended, pre[m])) : extended;
      tot[m] = total;
    }
  };

  // Lanes: Kogge-Stone over the block totals, `rank` counting in scan order.
  if (axis.laneMask) {
    int64_t first = llvm::countr_zero(static_cast<uint64_t>(axis.laneMask));
    int64_t steps = llvm::popcount(static_cast<uint64_t>(axis.laneMask)), last = (int64_t(1) << steps) - 1;
    NVVM::ShflKind toLater = reverse ? NVVM::ShflKind::down : NVVM::ShflKind::up;
    Value rank = field(*this, axis.laneMask);
    if (reverse)
      rank = arith::SubIOp::create(b_, loc_, i32(last), rank);
    // The lane that ends the group in scan order holds the group's total.
    Value lane = bitAnd(*this, tid_, kWarpSize - 1);
    Value lastLane =
        reverse ? bitAnd(*this, lane, ~axis.laneMask) : Value(arith::OrIOp::create(b_, loc_, lane, i32(axis.laneMask)));
    Value hasBefore = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ne, rank, i32(0));
    for (int64_t base : heads) {
      Value incl = tot[base];
      for (int64_t j = 0; j < steps; ++j) {
        Value from = shuffle(*this, toLater, incl, i32(int64_t(1) << (first + j)));
        Value reaches = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::uge, rank, i32(int64_t(1) << j));
        incl = arith::SelectOp::create(b_, loc_, reaches, comb(from, incl), incl);
      }
      Value before = shuffle(*this, toLater, incl, i32(int64_t(1) << first));
      // Only the levels above need the group's total.
      Value total = axis.warpMask || axis.highRegMask ? shuffle(*this, NVVM::ShflKind::idx, incl, lastLane) : incl;
      extend(base, hasBefore, before, total);
    }
  }

  // Warps: block totals through shared memory, from the first lane of each lane group.
  if (axis.warpMask) {
    WarpSlots slots(*this, axis);
    reserveShared(static_cast<int64_t>(heads.size()) * slots.perGroup * elementBytes(elt));
    barrier();
    ifThen(noneOf(*this, axis.laneMask), [&] {
      for (auto [bi, base] : llvm::enumerate(heads))
        storeElement(tot[base], sharedPointer(elt, 0, slots.own(bi)));
    });
    barrier();
    int64_t first = llvm::countr_zero(static_cast<uint64_t>(axis.warpMask));
    int64_t last = axis.warpMask >> first;
    Value own = field(*this, axis.warpMask);
    Value hasBefore = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ne, own, i32(reverse ? last : 0));
    for (auto [bi, base] : llvm::enumerate(heads)) {
      Value before, total;
      for (int64_t i = 0; i <= last; ++i) {
        int64_t w = reverse ? last - i : i;
        Value v = loadElement(elt, sharedPointer(elt, 0, slots.ofWarp(bi, w)));
        if (i == 0) {
          before = total = v;
          continue;
        }
        // Warp w precedes this one in scan order.
        Value precedes = arith::CmpIOp::create(
            b_, loc_, reverse ? arith::CmpIPredicate::ult : arith::CmpIPredicate::ugt, own, i32(w));
        before = arith::SelectOp::create(b_, loc_, precedes, comb(before, v), before);
        total = comb(total, v);
      }
      extend(base, hasBefore, before, total);
    }
  }

  // Registers above the thread bits: within the thread, block after block.
  if (axis.highRegMask) {
    for (int64_t base : basesOf(P, axis.regMask())) {
      Value running;
      for (int64_t head : membersInOrder(base, axis.highRegMask, reverse)) {
        if (running)
          extend(head, Value(), running, tot[head]);
        running = running ? comb(running, tot[head]) : tot[head];
      }
    }
  }
  tiles_[op] = pre;
  return success();
}

} // namespace tile::codegen
