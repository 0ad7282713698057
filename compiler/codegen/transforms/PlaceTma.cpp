// The tile-place-tma pass: decides which of the loads tile-pipeline-loops copies ahead are
// copied by the Tensor Memory Accelerator (one thread, one bulk tensor copy per swizzle column
// block, completion counted on an mbarrier) instead of by every thread with cp.async (per-thread
// addresses, bounds and zero-fill sizes: most of the integer work of the copying kernels).
//
// TMA reads through a descriptor (CUtensorMap) the runtime encodes at launch from the array's
// address, shape and strides; the descriptor fixes the box (one copy's extent per dimension),
// the swizzle and the fill of out-of-bounds elements. It needs what the caller promises with
// an aligned argument (tile.aligned: 16-byte base and strides, unit last stride), and it writes
// the box row-major into shared memory, or swizzled in column blocks of 32, 64 or 128 bytes:
// exactly the stage layouts of StageLayout.h. Loads that share an array, a box and a swizzle
// share a descriptor.
//
// Stores inside loops that TMA can write (TmaStore.h) get descriptors from the same list; the
// kernel records the bytes of the staging buffer they share.
//
// Decisions: tile.tma = descriptor index on the load or store, tile.tma_maps and
// tile.tma_store_bytes on the kernel (Pipelining.h).

#include "compiler/codegen/Passes.h"
#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/ElementStorage.h"
#include "compiler/codegen/analysis/GpuTarget.h"
#include "compiler/codegen/analysis/Invariants.h"
#include "compiler/codegen/analysis/Pipelining.h"
#include "compiler/codegen/analysis/StageLayout.h"
#include "compiler/codegen/analysis/TmaAccess.h"
#include "compiler/codegen/analysis/TmaStore.h"
#include "dialect/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <variant>

#define DEBUG_TYPE "tile-place-tma"

namespace tile::codegen {

#define GEN_PASS_DEF_TILEPLACETMA
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {

constexpr int64_t kTmaSharedAlign = 128; // a bulk tensor copy's shared-memory destination

/// One TMA descriptor: the array argument it reads, the box of one copy, its swizzle.
struct TmaMap {
  unsigned arg;
  SmallVector<int64_t> box;
  int64_t swizzle;
  bool nanFill;
  bool operator==(const TmaMap &o) const {
    return arg == o.arg && box == o.box && swizzle == o.swizzle && nanFill == o.nanFill;
  }
};

/// The descriptor `load` would use, or why TMA cannot copy it.
std::variant<TmaMap, std::string> tmaMapFor(mlir::tile::LoadOp load, mlir::tile::KernelOp kernel,
                                            const GpuTarget &target) {
  auto type = load.getType();
  ArrayRef<int64_t> shape = type.getShape();
  unsigned arg = 0;
  std::string why = tmaAccessRefusal(load.getArray(), load.getOrder(), load.getAllowTma(), shape, kernel, target, arg);
  if (!why.empty())
    return why;
  // TMA fills with zeros or NaN; the threads reading the stage put any other padding in
  // (KernelLowering::readStage).
  bool nanFill = load.getPadding() == mlir::tile::PaddingMode::nan && tmaFillsNan(type.getElementType());
  int64_t esize = elementBytes(type.getElementType());
  int64_t rowBytes = shape.back() * esize;
  SmallVector<int64_t> box(shape);
  int64_t swizzle = 0;
  if (load->hasAttr(kPipelineCoreMatricesAttr)) {
    swizzle = stageSwizzleBytes(rowBytes);
    if (swizzle)
      box.back() = swizzle / esize;
    else if (rowBytes != 16) // 16-byte rows: the interleaved core matrices are row-major
      return "its Tensor Core layout (interleaved core matrices of " + std::to_string(rowBytes) +
             "-byte rows) is not a TMA box";
  }
  why = tmaBoxRefusal(box, esize);
  if (!why.empty())
    return why;
  return TmaMap{arg, box, swizzle, nanFill};
}

struct TilePlaceTmaPass : impl::TilePlaceTmaBase<TilePlaceTmaPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<GpuTarget> target = passTarget(getOperation(), arch);
    if (!target)
      return signalPassFailure();
    for (auto kernel : getOperation().getOps<mlir::tile::KernelOp>())
      runOnKernel(kernel, *target);
    if (failed(verifyTmaDescriptors(getOperation())))
      signalPassFailure();
  }

  void runOnKernel(mlir::tile::KernelOp kernel, const GpuTarget &target) {
    Builder b(kernel.getContext());
    SmallVector<TmaMap> maps;
    kernel.walk([&](mlir::tile::LoadOp load) {
      auto offset = load->getAttrOfType<IntegerAttr>(kPipelineOffsetAttr);
      if (!offset)
        offset = load->getAttrOfType<IntegerAttr>(kPrefetchOffsetAttr);
      if (!offset)
        return;
      auto decision = tmaMapFor(load, kernel, target);
      if (std::holds_alternative<TmaMap>(decision) && !load->hasAttr(kPipelineOffsetAttr) &&
          kernel->hasAttr(kNoTmaPrefetchAttr))
        decision = "no shared memory is left at occupancy " + std::to_string(kernel.getOccupancy().value_or(1)) +
                   " for the mbarriers of the kernel-start copies";
      if (auto *why = std::get_if<std::string>(&decision)) {
        load.emitRemark() << "load copied with cp.async, not TMA: " << *why;
        TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] load at " << load.getLoc() << ": cp.async (" << *why << ")\n");
        return;
      }
      // tile-pipeline-loops starts every buffer on 128 bytes (swizzled ones on their period);
      // a hand-written offset may not.
      if (offset.getInt() % kTmaSharedAlign) {
        load.emitRemark() << "load copied with cp.async, not TMA: its buffer at byte " << offset.getInt()
                          << " is not 128-byte aligned";
        return;
      }
      TmaMap map = std::get<TmaMap>(decision);
      auto *it = llvm::find(maps, map);
      size_t index = it - maps.begin();
      if (it == maps.end())
        maps.push_back(map);
      load->setAttr(kTmaAttr, b.getI64IntegerAttr(int64_t(index)));
      TILE_DEBUG({
        llvm::dbgs() << "[" DEBUG_TYPE "] load at " << load.getLoc() << ": TMA descriptor " << index << " over '"
                     << kernel.getParamName(map.arg) << "', box";
        for (int64_t d : map.box)
          llvm::dbgs() << " " << d;
        llvm::dbgs() << ", swizzle " << map.swizzle << "\n";
      });
    });
    int64_t stagingBytes = 0;
    kernel.walk([&](mlir::tile::StoreOp store) {
      auto decision = tmaStoreFor(store, kernel, target);
      if (auto *why = std::get_if<std::string>(&decision)) {
        // Every store outside loops would say so: only the stores a loop repeats get a remark.
        if (store->getParentOfType<scf::ForOp>())
          store.emitRemark() << "store not written by TMA: " << *why;
        TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] store at " << store.getLoc() << ": element stores (" << *why
                                << ")\n");
        return;
      }
      const TmaStorePlan &plan = std::get<TmaStorePlan>(decision);
      TmaMap map{plan.arg, plan.box, plan.swizzle, /*nanFill=*/false};
      auto *it = llvm::find(maps, map);
      size_t index = it - maps.begin();
      if (it == maps.end())
        maps.push_back(map);
      store->setAttr(kTmaAttr, b.getI64IntegerAttr(int64_t(index)));
      stagingBytes = std::max(stagingBytes, plan.stagingBytes);
      TILE_DEBUG({
        llvm::dbgs() << "[" DEBUG_TYPE "] store at " << store.getLoc() << ": TMA descriptor " << index << " over '"
                     << kernel.getParamName(map.arg) << "', box";
        for (int64_t d : map.box)
          llvm::dbgs() << " " << d;
        llvm::dbgs() << ", swizzle " << map.swizzle << ", staging " << plan.stagingBytes << " bytes\n";
      });
    });
    if (stagingBytes)
      kernel->setAttr(kTmaStoreBytesAttr, b.getI64IntegerAttr(stagingBytes));
    if (maps.empty())
      return;
    SmallVector<Attribute> dicts;
    for (const TmaMap &m : maps)
      dicts.push_back(b.getDictionaryAttr({b.getNamedAttr("arg", b.getI64IntegerAttr(m.arg)),
                                           b.getNamedAttr("box", b.getDenseI64ArrayAttr(m.box)),
                                           b.getNamedAttr("swizzle", b.getI64IntegerAttr(m.swizzle)),
                                           b.getNamedAttr("nan_fill", b.getBoolAttr(m.nanFill))}));
    kernel->setAttr(kTmaMapsAttr, b.getArrayAttr(dicts));
  }
};

} // namespace

} // namespace tile::codegen
