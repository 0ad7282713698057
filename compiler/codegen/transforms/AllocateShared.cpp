// The tile-allocate-shared pass: places every tgpu.alloc_shared buffer in the block's shared
// memory by liveness. A buffer is live from its allocation to its last use (through the views
// tgpu.stage and tgpu.transpose make of it, and the tiles tgpu.load_shared reads, which a
// Tensor Core product reads in place), in the block of its allocation; a use nested in a loop
// or another region there keeps it live until that op ends. Two buffers are compared in the
// innermost block holding both (Liveness). Buffers whose live ranges do not overlap may share bytes; each
// starts on its encoding's alignment (1024 bytes for the 128-byte swizzle, the period of its
// XOR pattern; 16 bytes at least). Decisions: `tgpu.offset` on each allocation and
// `tgpu.shared_bytes` on the op whose body holds them; more than a block may have is an error
// that gives the figures and the largest set of buffers live at once. The placement is then
// checked against a liveness of its own (verifySharedAllocation, Invariants.h).

#include "compiler/codegen/Passes.h"
#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/Invariants.h"
#include "dialect/gpu/TileGpu.h"

#define DEBUG_TYPE "tile-allocate-shared"

namespace tile::codegen {

#define GEN_PASS_DEF_TILEALLOCATESHARED
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {

int64_t alignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

struct Buffer {
  tgpu::AllocSharedOp alloc;
  Block *home;        // the block of the allocation
  int64_t start, end; // positions in `home`, inclusive (a use nested in an op counts as that op)
  int64_t bytes, align;
  int64_t offset = -1;
};

// Positions of ops in their blocks, and the live ranges of buffers compared in the innermost
// block holding both: two buffers of one loop body live one after the other share bytes (MLA
// decoding's K tile and its V tile), a buffer inside a loop counts as live over the whole loop
// against one outside it.
class Liveness {
public:
  explicit Liveness(Operation *scope) {
    scope->walk([&](Block *block) {
      int64_t n = 0;
      for (Operation &op : *block)
        position_[&op] = n++;
    });
  }
  int64_t position(Operation *op) const { return position_.lookup(op); }
  // The op of `block` that is or holds `op`.
  static Operation *anchor(Block *block, Operation *op) {
    while (op->getBlock() != block)
      op = op->getParentOp();
    return op;
  }
  // The range of `b` in `block`, which holds b.home.
  std::pair<int64_t, int64_t> rangeIn(const Buffer &b, Block *block) const {
    if (b.home == block)
      return {b.start, b.end};
    int64_t at = position(anchor(block, b.alloc));
    return {at, at};
  }
  static Block *commonBlock(Block *x, Block *y) {
    llvm::SmallPtrSet<Block *, 8> around;
    for (Block *b = x; b; b = b->getParentOp() ? b->getParentOp()->getBlock() : nullptr)
      around.insert(b);
    for (Block *b = y; b; b = b->getParentOp() ? b->getParentOp()->getBlock() : nullptr)
      if (around.count(b))
        return b;
    return nullptr;
  }
  bool overlap(const Buffer &a, const Buffer &b) const {
    Block *common = commonBlock(a.home, b.home);
    auto [a0, a1] = rangeIn(a, common);
    auto [b0, b1] = rangeIn(b, common);
    return a0 <= b1 && b0 <= a1;
  }
  // Whether `a` is live where `b` is allocated.
  bool liveAtStartOf(const Buffer &a, const Buffer &b) const {
    Block *common = commonBlock(a.home, b.home);
    auto [a0, a1] = rangeIn(a, common);
    int64_t at = rangeIn(b, common).first;
    return a0 <= at && at <= a1;
  }

private:
  llvm::DenseMap<Operation *, int64_t> position_;
};

struct TileAllocateSharedPass : impl::TileAllocateSharedBase<TileAllocateSharedPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<GpuTarget> target = passTarget(getOperation(), arch);
    if (!target)
      return signalPassFailure();
    // Each op whose body allocates is a scope: the allocations nested anywhere in it share its
    // block's timeline.
    llvm::SetVector<Operation *> scopes;
    getOperation().walk([&](tgpu::AllocSharedOp alloc) {
      Operation *scope = alloc->getParentOp();
      while (scope->getParentOp() && !isa<ModuleOp>(scope->getParentOp()))
        scope = scope->getParentOp();
      scopes.insert(scope);
    });
    for (Operation *scope : scopes)
      if (failed(allocateSharedBuffers(scope, *target)))
        return signalPassFailure();
  }
};

// A buffer in an error: "128x512xbf16 (131072 bytes, line 12)"; the stages of a pipelined
// loop's buffer are counted ("2 stages of 64x64xbf16").
std::string describeBuffer(Buffer &b) {
  std::string text;
  llvm::raw_string_ostream os(text);
  tgpu::SharedType type = b.alloc.getType();
  if (type.getStages() > 0)
    os << type.getStages() << " stages of ";
  llvm::interleave(type.getShape(), os, "x");
  os << "x" << type.getElementType() << " (" << b.bytes << " bytes";
  if (auto loc = b.alloc.getLoc()->findInstanceOf<FileLineColLoc>())
    os << ", line " << loc.getLine();
  os << ")";
  return text;
}

} // namespace

LogicalResult allocateSharedBuffers(Operation *scope, const GpuTarget &target) {
  Liveness liveness(scope);
  SmallVector<Buffer> buffers;
  scope->walk([&](tgpu::AllocSharedOp alloc) {
    Block *home = alloc->getBlock();
    int64_t at = liveness.position(alloc);
    Buffer buffer{alloc, home, at, at, alloc.getType().getSizeInBytes(), alloc.getType().getAlignment()};
    SmallVector<Value> worklist{alloc.getResult()};
    while (!worklist.empty()) {
      for (Operation *user : worklist.pop_back_val().getUsers()) {
        buffer.end = std::max(buffer.end, liveness.position(Liveness::anchor(home, user)));
        if (isa<tgpu::StageOp, tgpu::TransposeOp, tgpu::LoadSharedOp>(user))
          worklist.push_back(user->getResult(0));
      }
    }
    buffers.push_back(buffer);
  });
  // First fit in allocation order: the lowest aligned offset clear of every buffer already
  // placed whose live range overlaps.
  int64_t total = 0;
  for (Buffer &b : buffers) {
    SmallVector<std::pair<int64_t, int64_t>> taken;
    for (Buffer &other : buffers)
      if (other.offset >= 0 && liveness.overlap(other, b))
        taken.push_back({other.offset, other.offset + other.bytes});
    llvm::sort(taken);
    int64_t at = 0;
    for (auto [lo, hi] : taken)
      if (alignUp(at, b.align) + b.bytes > lo)
        at = std::max(at, hi);
    b.offset = alignUp(at, b.align);
    total = std::max(total, b.offset + b.bytes);
    b.alloc->setAttr(tgpu::kOffsetAttr, IntegerAttr::get(IntegerType::get(scope->getContext(), 64), b.offset));
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << b.alloc.getType() << " at " << b.alloc.getLoc() << ": " << b.bytes
                            << " bytes at offset " << b.offset << ", live over ops " << b.start << "-" << b.end
                            << " of its block\n");
  }
  scope->setAttr(tgpu::kSharedBytesAttr, IntegerAttr::get(IntegerType::get(scope->getContext(), 64), total));
  if (failed(verifySharedAllocation(scope)))
    return failure();
  int64_t limit = target.maxSharedBytesPerBlock();
  if (total <= limit)
    return success();
  // The figures, and the buffers live together at the point that needs the most: the error
  // names each (tile, bytes, source line), since those are the tiles to shrink.
  Buffer *worst = nullptr;
  int64_t worstLive = 0;
  for (Buffer &b : buffers) {
    int64_t live = 0;
    for (Buffer &other : buffers)
      if (liveness.liveAtStartOf(other, b))
        live += other.bytes;
    if (live > worstLive) {
      worstLive = live;
      worst = &b;
    }
  }
  std::string names;
  llvm::raw_string_ostream os(names);
  llvm::interleaveComma(
      llvm::make_filter_range(buffers, [&](Buffer &other) { return liveness.liveAtStartOf(other, *worst); }), os,
      [&](Buffer &other) { os << describeBuffer(other); });
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] over the limit: " << total << " > " << limit
                          << "; live at once: " << names << "\n");
  InFlightDiagnostic diag = scope->emitError()
                            << "shared memory: the buffers need " << total << " bytes, over the " << limit
                            << " a block may have on sm_" << target.sm << (target.archSpecific ? "a" : "") << "; "
                            << worstLive << " bytes are live at once: " << names
                            << "; use smaller tiles (or keep fewer of them live at once)";
  diag.attachNote(worst->alloc.getLoc()) << "here " << worstLive << " bytes of buffers are live at once";
  return failure();
}

} // namespace tile::codegen
