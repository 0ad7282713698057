// The invariant of tile-allocate-shared's placement (Invariants.h): simultaneously live
// buffers are disjoint and aligned, checked with a liveness of its own.

#include "compiler/codegen/analysis/Invariants.h"
#include "dialect/gpu/TileGpu.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;

namespace tile::codegen {

namespace {

struct Placed {
  tgpu::AllocSharedOp alloc;
  int64_t first = 0, last = 0; // op numbers in program order, inclusive
  int64_t offset = 0, bytes = 0;
};

} // namespace

LogicalResult verifySharedAllocation(Operation *scope) {
  // Every op under the scope numbered in program order; each op also knows the number of the
  // last op nested in it (a loop's uses repeat until then).
  llvm::DenseMap<Operation *, int64_t> number, lastNested;
  int64_t next = 0;
  scope->walk<WalkOrder::PreOrder>([&](Operation *op) { number[op] = next++; });
  scope->walk([&](Operation *op) {
    int64_t last = number[op];
    op->walk([&](Operation *inner) { last = std::max(last, number[inner]); });
    lastNested[op] = last;
  });

  SmallVector<Placed> placed;
  WalkResult result = scope->walk([&](tgpu::AllocSharedOp alloc) {
    auto offset = alloc->getAttrOfType<IntegerAttr>(tgpu::kOffsetAttr);
    if (!offset) {
      alloc.emitError("internal error: tile-allocate-shared left this buffer without a tgpu.offset");
      return WalkResult::interrupt();
    }
    Placed p{alloc, number[alloc], number[alloc], offset.getInt(), alloc.getType().getSizeInBytes()};
    if (p.offset < 0 || p.offset % alloc.getType().getAlignment()) {
      alloc.emitError() << "internal error: tile-allocate-shared placed this buffer at offset " << p.offset
                        << ", not on its " << alloc.getType().getAlignment() << "-byte alignment";
      return WalkResult::interrupt();
    }
    SmallVector<Value> worklist{alloc.getResult()};
    while (!worklist.empty())
      for (Operation *user : worklist.pop_back_val().getUsers()) {
        int64_t end = number[user];
        // A use inside a loop the allocation is not in repeats on every iteration.
        for (Operation *parent = user->getParentOp(); parent && parent != scope; parent = parent->getParentOp())
          if (isa<scf::ForOp, scf::WhileOp>(parent) && !parent->isAncestor(alloc))
            end = std::max(end, lastNested[parent]);
        p.last = std::max(p.last, end);
        if (isa<tgpu::StageOp, tgpu::TransposeOp, tgpu::LoadSharedOp>(user))
          worklist.push_back(user->getResult(0));
      }
    placed.push_back(p);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  for (size_t i = 0; i < placed.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      Placed &a = placed[j], &b = placed[i];
      const bool liveTogether = a.first <= b.last && b.first <= a.last;
      const bool shareBytes = a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
      if (liveTogether && shareBytes) {
        InFlightDiagnostic diag = b.alloc.emitError()
                                  << "internal error: tile-allocate-shared placed this buffer (bytes " << b.offset
                                  << "-" << b.offset + b.bytes - 1 << ") over another that is live at the same time"
                                  << " (bytes " << a.offset << "-" << a.offset + a.bytes - 1 << ")";
        diag.attachNote(a.alloc.getLoc()) << "the other buffer";
        return failure();
      }
    }
  return success();
}

} // namespace tile::codegen
