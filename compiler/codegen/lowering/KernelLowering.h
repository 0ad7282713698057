// Lowers one tile.kernel to an llvm.func for NVPTX: every tile value becomes the elements its
// thread holds under the tile's layout (TileLayout.h: canonical, or #tile.mma fragments),
// scalars stay scalars (they are uniform across the block), arrays become (pointer, shape,
// strides) from the kernel ABI.
//
// The result uses the llvm, nvvm, arith, math and scf dialects on scalars; the standard
// conversions (scf-to-cf, arith/math/cf-to-llvm) finish the job.
#pragma once

#include "compiler/codegen/analysis/ElementStorage.h"
#include "compiler/codegen/analysis/GpuTarget.h"
#include "compiler/codegen/analysis/OperandSources.h"
#include "compiler/codegen/analysis/Pipelining.h"
#include "compiler/codegen/analysis/StageLayout.h"
#include "compiler/codegen/analysis/TileLayout.h"
#include "dialect/TileDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <string>

namespace tile::codegen {

/// The launch facts lowering decides, for the kernel metadata.
struct KernelLaunchInfo {
  std::string symbol;
  int64_t numThreads = 0;
  int64_t sharedMemoryBytes = 0;
  /// The most threads per block at which every wgmma's registers fit (1024 without wgmma):
  /// what a spill warning may suggest.
  int64_t maxUsefulThreads = 1024;
};

class KernelLowering {
public:
  KernelLowering(mlir::tile::KernelOp kernel, int64_t numThreads, GpuTarget target = {});

  /// Builds the llvm.func next to the kernel; reports unsupported ops as errors at their
  /// locations and fails.
  mlir::FailureOr<KernelLaunchInfo> run();

  /// After a failed run(): the kernel's scratch did not fit next to its pipeline stages (no
  /// error was reported; lower it again without them).
  bool pipelineOverflowed() const { return pipelineOverflow_; }
  /// Staging buffers TMA stores may take (1 or 2; tile-lower-to-llvm's tma-store-buffers).
  void setTmaStoreBuffers(int64_t buffers) { tmaStoreBuffers_ = buffers; }
  int64_t scratchBytes() const { return sharedBytes_; }
  int64_t pipelineBytes() const { return prefetchBytes_ + pipelineBytes_; }

  // Shared by the lowering files.
  struct Array {
    mlir::Value ptr;                               // !llvm.ptr<1>
    llvm::SmallVector<mlir::Value> shape, strides; // i64
    mlir::Type elementType;
    /// The kernel argument is tile.aligned (16-byte base and strides, unit last stride).
    bool aligned = false;
  };
  using Elements = llvm::SmallVector<mlir::Value>;

private:
  mlir::LogicalResult lowerRegion(mlir::Region &region);
  mlir::LogicalResult lowerOp(mlir::Operation *op);
  mlir::LogicalResult lowerElementwise(mlir::Operation *op);
  mlir::Value lowerTf32Elementwise(mlir::Operation *op, mlir::ValueRange operands);
  /// `op` on 8-bit float registers (KernelLoweringFloat8.cpp); null when it has none.
  mlir::FailureOr<mlir::Value> lowerFloat8Elementwise(mlir::Operation *op, mlir::ValueRange operands);
  /// The results of element-wise `op` on one element of each operand (its register values).
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> lowerElementwiseOnScalars(mlir::Operation *op,
                                                                            mlir::ValueRange operands);
  /// Element `linear` (i32, row-major) of a tile that tile-remove-layout-conversions marked
  /// rematerializable (Rematerialize.h), recomputed by this thread (KernelLoweringRemat.cpp).
  mlir::FailureOr<mlir::Value> rematerializedElement(mlir::Value tile, mlir::Value linear);
  /// A tile.rematerialize broadcast: each register recomputes its element of the input.
  mlir::LogicalResult lowerRematerializedBroadcast(mlir::tile::BroadcastOp op);
  /// A tile.rematerialize conversion: each register recomputes its element in the new layout.
  mlir::LogicalResult lowerRematerializedConversion(mlir::tile::ConvertLayoutOp op);
  /// Each register's element coordinates (i32 per dim), sharing values across registers.
  std::vector<llvm::SmallVector<mlir::Value>> elementCoordinates(const TileLayout &layout);
  mlir::LogicalResult lowerFor(mlir::scf::ForOp op);
  /// An scf.for over `op`'s lowered bounds carrying `inits`, its body empty (no terminator).
  mlir::scf::ForOp createLoweredLoop(mlir::scf::ForOp op, mlir::ValueRange inits);
  // Loads copied into shared-memory stages ahead of their iteration, as tile-pipeline-loops
  // decided (KernelLoweringPipeline.cpp).
  /// Refuses pipelining attributes that do not fit together (hand-written IR).
  mlir::LogicalResult verifyPipelineAttributes();
  /// Before the loop: copies for its first stages - 1 iterations.
  void pipelinePrologue(mlir::scf::ForOp op);
  /// At the top of an iteration with stage index `stage` (i32): waits for its copies and
  /// issues those stages - 1 iterations ahead.
  void pipelineIteration(mlir::scf::ForOp op, mlir::Value iv, mlir::Value stage);
  /// The stage index (i32) of the next iteration.
  mlir::Value pipelineNextStage(mlir::scf::ForOp op, mlir::Value stage);
  void pipelineEpilogue(mlir::scf::ForOp op);
  /// For a loop with TMA loads the loop carries a counter c in [0, 2 * stages): the stage is
  /// c mod stages and the phase its barrier completes (c >= stages); other loops carry the stage.
  std::pair<mlir::Value, mlir::Value> pipelineStageAndPhase(mlir::scf::ForOp op, mlir::Value counter);
  void issuePipelineCopies(mlir::scf::ForOp op, mlir::Value iv, mlir::Value stageOffset, mlir::Value mbarrier);
  void issueCopies(llvm::ArrayRef<mlir::tile::LoadOp> loads, mlir::Block *body,
                   llvm::function_ref<mlir::Value(mlir::tile::LoadOp)> byteOffset, mlir::Value mbarrier);
  void issueCopy(mlir::tile::LoadOp load, mlir::Value byteOffset);
  mlir::LogicalResult lowerPipelinedLoad(mlir::tile::LoadOp op);
  /// At kernel start: the copies of the loads tile-pipeline-loops prefetches (one group).
  void issuePrefetches();
  // Bulk tensor copies and their mbarriers (KernelLoweringTma.cpp).
  /// A side-effecting inline PTX instruction: the one way the TMA lowering builds them.
  void ptx(llvm::StringRef text, llvm::StringRef constraints, mlir::ValueRange operands);
  mlir::ArrayAttr tmaMaps();
  static bool usesTma(mlir::tile::LoadOp load);
  mlir::LogicalResult verifyTmaAttributes();
  /// Numbers the stage barriers of the pipelined loops with TMA loads (tmaLoopBarriers_).
  int64_t countTmaBarriers();
  /// The mbarriers: the loops' stage barriers, then `prefetchGroups` more; placeTmaBarriers
  /// puts them at `offset` in shared memory once the scratch's size is known.
  void declareTmaBarriers(int64_t prefetchGroups);
  void placeTmaBarriers(int64_t offset);
  /// The shared window address (i32) of mbarrier `index` (i32).
  mlir::Value mbarrierAddress(mlir::Value index);
  /// `then` on thread 0 only (it issues the bulk copies and manages the barriers).
  void onThreadZero(const std::function<void()> &then);
  /// Thread 0 initializes (arrival count `arrivals`) or invalidates barriers first .. first +
  /// count - 1.
  void initMbarriers(int64_t first, int64_t count, int64_t arrivals = 1);
  void invalidateMbarriers(int64_t first, int64_t count);
  /// Every thread waits until the barrier at `address` completes the phase of parity `parity`.
  void waitMbarrier(mlir::Value address, mlir::Value parity);
  /// The bytes the bulk copies of `load` write (the whole tile: out-of-bounds boxes are filled).
  int64_t tmaBytes(mlir::tile::LoadOp load);
  /// Thread 0 arms `mbarrier` (i32 address) with the bytes of `loads` and issues their copies.
  void issueTmaCopies(llvm::ArrayRef<mlir::tile::LoadOp> loads,
                      llvm::function_ref<mlir::Value(mlir::tile::LoadOp)> byteOffset, mlir::Value mbarrier);
  void issueTmaCopy(mlir::tile::LoadOp load, mlir::Value byteOffset, mlir::Value mbarrier);
  /// A bulk tensor copy's coordinates (i32, innermost first) of the tile at `indices` (counted
  /// in tiles of `shape`), and their operand list "$first, ..." in the inline PTX.
  llvm::SmallVector<mlir::Value> tmaCoordinates(mlir::ValueRange indices, llvm::ArrayRef<int64_t> shape);
  static std::string tmaCoordinateList(int64_t rank, int64_t first);
  // Bulk tensor stores (KernelLoweringTmaStore.cpp).
  /// At kernel start: the staging buffers' offset (a constant placeTail sets at the end) and
  /// the store counter.
  void declareTmaStaging();
  /// The shared memory after the data that the kernel cannot do without (the mbarriers, one
  /// staging buffer and its alignment).
  int64_t tailBytes() const;
  /// Places the mbarriers and the staging buffers (two when they fit at the kernel's occupancy)
  /// after `dataBytes`; returns where they end.
  int64_t placeTail(int64_t dataBytes);
  /// Before the kernel returns: thread 0 waits for its bulk stores.
  void waitForTmaStores();
  /// Whether the top-of-iteration barrier of the pipelined loop around `op` (a TMA store)
  /// frees its staging buffer: `op` is that loop's only bulk store, in its body, and the loop
  /// has such a barrier; thread 0 then waits for the previous store's read before it.
  bool stagingFreedByLoopTop(mlir::tile::StoreOp op);
  /// The TMA store of `loop`'s body whose staging buffer its top barrier frees, if any.
  mlir::tile::StoreOp storeFreedByLoopTop(mlir::scf::ForOp loop);
  /// Whether `loop`'s iterations start with a barrier (KernelLoweringPipeline.cpp).
  bool pipelineTopBarrier(mlir::scf::ForOp loop);
  /// The byte offset (i32) of stage `stage` (i32) of pipelined loop `op`.
  mlir::Value pipelineStageStart(mlir::scf::ForOp op, mlir::Value stage);
  // Warp specialization (KernelLoweringWarpSpecialize.cpp).
  /// The loop of the kernel's top block marked tile.warp_specialize that still admits it.
  void findSpecializedLoop();
  bool isSpecialized(mlir::scf::ForOp loop);
  /// At kernel start: the specialized loop's barriers, the producer's branch, and the
  /// insertion point in the consumers' (the returned scf.if; null without a specialized loop).
  mlir::scf::IfOp startWarpSpecialization();
  /// The producer thread's loop of copies.
  void produceCopies(mlir::scf::ForOp loop);
  /// At the specialized loop's start: every consumer thread releases every stage once.
  void releaseStagesToProducer(mlir::scf::ForOp loop);
  /// At the top of iteration `iv` past the first: every consumer thread releases the stage
  /// (i32) the previous iteration read.
  void releasePreviousStage(mlir::scf::ForOp loop, mlir::Value iv, mlir::Value previousStage);
  /// A barrier of the consumer threads only (named barrier 1).
  void consumerBarrier();
  /// Ping-pong order (kPingPongKey): whether wgmma `product` over `warpgroups` warpgroups
  /// takes turns; before issuing it, a warpgroup waits for its turn, after issuing it passes
  /// the turn; after the loop the last turn is taken up.
  bool takesTurns(mlir::Operation *product, int64_t warpgroups);
  void takeTensorCoreTurn();
  void passTensorCoreTurn();
  void finishPingPong(mlir::scf::ForOp loop);
  /// This thread's consumer warpgroup (i32), and whether it is `warpgroup` (i1).
  mlir::Value consumerWarpgroup();
  mlir::Value consumerWarpgroupIs(int64_t warpgroup);
  mlir::LogicalResult lowerTmaStore(mlir::tile::StoreOp op);
  /// Reads `op`'s tile into registers from its buffer at `base` (i32 bytes into shared memory).
  void readStage(mlir::tile::LoadOp op, mlir::Value base);
  /// Element `linear` (i32, row-major in the load's tile) of that buffer.
  mlir::Value readStageElement(mlir::tile::LoadOp op, mlir::Value base, mlir::Value linear);
  /// Element `linear` (i32, row-major in the load's tile) of a stage buffer: itself, or for
  /// tile.pipeline_core_matrices its place in wgmma's core-matrix order.
  mlir::Value stageIndex(mlir::tile::LoadOp load, mlir::Value linear);
  /// The shared window address (i32) of `load`'s buffer in the stage the current iteration of
  /// its loop reads.
  mlir::Value stageAddress(mlir::tile::LoadOp load);
  /// The same as a byte offset (i32) into shared memory (null for a pipelined load outside
  /// its pipelined loop).
  mlir::Value stageByteOffset(mlir::tile::LoadOp load);
  mlir::LogicalResult lowerIf(mlir::scf::IfOp op);
  mlir::LogicalResult lowerWhile(mlir::scf::WhileOp op); // KernelLoweringWhile.cpp
  // Memory (KernelLoweringMemory.cpp).
  mlir::LogicalResult lowerLoad(mlir::tile::LoadOp op);
  mlir::LogicalResult lowerStore(mlir::tile::StoreOp op);
  /// Element `linear` (i32, row-major in the tile) of `op`'s tile read from global memory, or
  /// its padding past the array's edge.
  mlir::Value loadTileElement(mlir::tile::LoadOp op, mlir::Value linear);
  /// `value`, element `linear` of load `op`, or the load's padding where that element lies
  /// outside the array (for copies that filled it with zeros).
  mlir::Value padOutOfBounds(mlir::tile::LoadOp op, mlir::Value linear, mlir::Value value);
  mlir::LogicalResult lowerElementAccess(mlir::Operation *op);
  mlir::LogicalResult lowerAtomic(mlir::Operation *op); // KernelLoweringAtomics.cpp
  // Data movement through shared memory (KernelLoweringData.cpp).
  mlir::LogicalResult lowerShapeOp(mlir::Operation *op);
  mlir::LogicalResult lowerReduce(mlir::tile::ReduceOp op);
  /// A row reduction of a #tile.mma accumulator into #tile.mma_rows (registers and quad
  /// shuffles only).
  mlir::LogicalResult lowerReduceToMmaRows(mlir::tile::ReduceOp op);
  /// A broadcast of #tile.mma_rows over the columns of the accumulator layout it came from.
  mlir::LogicalResult lowerBroadcastMmaRows(mlir::tile::BroadcastOp op);
  mlir::LogicalResult lowerScan(mlir::tile::ScanOp op);
  mlir::LogicalResult lowerMma(mlir::tile::MmaOp op);
  mlir::LogicalResult lowerMmaTensorCore(mlir::tile::MmaOp op);
  // The tgpu dialect's shared buffers (KernelLoweringSharedBuffers.cpp).
  mlir::LogicalResult lowerSharedBufferOp(mlir::Operation *op);
  /// A wgmma operand read in place from a buffer (tgpu.load_shared, tile-place-shared-operands):
  /// its tile, oriented for operand A or B, and its bytes from the scratch start.
  struct BufferOperand {
    OperandTile tile;
    int64_t offset;
  };
  std::optional<BufferOperand> bufferOperand(mlir::Value operand, bool isB);
  /// Before a product reads buffers written since the last one did: the writes ordered before
  /// the async proxy's reads, and every thread's writes done.
  void finishBufferWrites();
  /// Bytes from the scratch start to where the buffers' offsets count from: the largest
  /// alignment a buffer of the kernel needs (1024 bytes for the 128-byte swizzle).
  int64_t bufferRegionPad();
  // wgmma (KernelLoweringWgmma.cpp).
  mlir::LogicalResult lowerMmaWgmma(mlir::tile::MmaOp op);
  /// Two 16-bit elements in one i32 register, `lo` in the low half (a Tensor Core operand).
  mlir::Value packPair(mlir::Value lo, mlir::Value hi);
  /// The accumulators of a loop's pending wgmma group (kWgmmaPendingAttr) once every group is
  /// complete (wgmma.wait_group 0, threaded through).
  Elements waitForWgmma(const Elements &accumulators);
  /// A product's wgmma group runs while the ops after it that neither use its result nor may
  /// write shared memory are lowered (mayRunBeforeWgmmaWait): its wait comes before the first
  /// op that does, before every barrier and at the end of the region.
  void waitForDeferredWgmma();
  bool mayRunBeforeWgmmaWait(mlir::Operation *op) const;
  /// One wgmma.mma_async m64nNk16 with A from registers (four i32 of two 16-bit elements: row
  /// g and row g + 8 at columns 2q, 2q + 1, then both 8 columns right) and B by descriptor,
  /// accumulating into the struct of f32 registers `d`; returns the new struct.
  mlir::Value registerAWgmma(mlir::Value d, llvm::ArrayRef<mlir::Value> a, mlir::Value descB, int64_t n,
                             mlir::Type elementType, bool bMnMajor);
  /// Whether `op` runs as wgmma (else why not, in `why`).
  bool runsAsWgmma(mlir::tile::MmaOp op, std::string *why = nullptr);
  /// The wgmma product that needs the most registers per thread, and that need (null, 0 without).
  std::pair<mlir::tile::MmaOp, int64_t> wgmmaRegisterNeed();
  /// An error at the product when its wgmma cannot fit a thread's registers even at one block
  /// per SM (ptxas would fail with "Insufficient registers").
  mlir::LogicalResult checkWgmmaRegisters();
  /// KernelLaunchInfo::maxUsefulThreads.
  int64_t wgmmaThreadLimit();
  /// `asked` (the occupancy option), lowered until every wgmma's registers fit its share.
  int32_t wgmmaOccupancy(int32_t asked);
  /// Whether every use of `op` is an A or B operand of a Tensor Core product that reads the
  /// permute's input from shared memory in the other orientation (wgmma: written transposed
  /// into its core matrices; mma.sync with 16-bit operands: ldmatrix with the opposite .trans):
  /// the permute costs nothing.
  bool permuteFoldsIntoMma(mlir::tile::PermuteOp op);
  static bool onlyRematerialized(mlir::Operation *op);
  mlir::Value coreMatrixOffset(mlir::Value row, mlir::Value col, int64_t cols);
  /// Element (row, col) (i32) of a Tensor Core operand's stage buffer holding a rows x cols tile
  /// of `elementBytes`-byte elements, as an element index into the buffer (StageLayout.h).
  mlir::Value stageOffset(mlir::Value row, mlir::Value col, int64_t rows, int64_t cols, int64_t elementBytes);
  /// Element (row, col) (i32) of `tile` (StageLayout.h), as an element index.
  mlir::Value operandTileOffset(const OperandTile &tile, mlir::Value row, mlir::Value col);
  /// The wgmma matrix descriptor of `tile` (at i64 shared window address `base`) for the
  /// 8-row groups from (row, col) on (i64; row a multiple of 8, col inside its column block).
  mlir::Value operandDescriptor(mlir::Value base, const OperandTile &tile, mlir::Value row, mlir::Value col);
  /// Writes a (batch-stacked) wgmma operand held in registers in a canonical layout into the
  /// scratch at `byteOffset` as `tile`, row by row (vector stores).
  void writeOperandTile(const Elements &values, const TileLayout &layout, mlir::Type type, int64_t byteOffset,
                        const OperandTile &tile);
  mlir::LogicalResult lowerConvertLayout(mlir::tile::ConvertLayoutOp op);
  /// This thread's place in an mma warp grid of warpsB x wm x wn warps (see #tile.mma).
  struct MmaThread {
    mlir::Value lane, warp, group, quad, warpB, warpM, warpN;
  };
  MmaThread mmaThread(int64_t wm, int64_t wn);
  /// ldmatrix .x1/.x2/.x4 of 8x8 16-bit matrices (.trans when `transpose`), lane l addressing
  /// a row of matrix l / 8: `count` i32 registers of two elements each.
  llvm::SmallVector<mlir::Value> ldmatrixRegs(mlir::Value ptr, int count, bool transpose);
  /// Each lane's row and column in the four 8x8 matrices of an ldmatrix.x4 over a 16x16 block
  /// (columns in elements of `elementBytes`), as stored, and for a transposed operand.
  struct LdmatrixLanes {
    mlir::Value row, col, rowT, colT;
  };
  LdmatrixLanes ldmatrixLanes(mlir::Value lane, int64_t elementBytes);
  /// lowerRematerializedConversion's fast path for a 16-bit tile in core-matrix stage order
  /// (or its transpose) converted to the mma layout: ldmatrix per 16x16 block. False when it
  /// does not apply (nothing emitted).
  bool conversionByLdmatrix(mlir::tile::ConvertLayoutOp op);
  bool conversionWithLdmatrixLeaves(mlir::tile::ConvertLayoutOp op);
  /// The registers of `input` (a core-matrix stage's tile or its transpose, coreMatrixLoad)
  /// in `type`'s mma layout, read with ldmatrix; none when it is not such a tile.
  std::optional<Elements> ldmatrixFragments(mlir::Value input, mlir::RankedTensorType type);
  mlir::Value mmaLinearIndex(const TileLayout &layout, int64_t r);
  /// Register r's element of a #tile.mma tile: its batch index (over the dims before M) and
  /// row, and its column.
  std::pair<mlir::Value, mlir::Value> mmaBatchAndRow(const TileLayout &layout, int64_t r, const MmaThread &t);
  /// The batch index and row of the `pair`-th (batch, m-tile) pair of this thread, in its lower
  /// (row + 8) or upper half, for an accumulator (or its rows) of M rows.
  std::pair<mlir::Value, mlir::Value> mmaPairBatchAndRow(const TileLayout &layout, int64_t m, int64_t pair, bool lower,
                                                         const MmaThread &t);
  /// Register r's element of a #tile.mma_rows tile (its linear index).
  mlir::Value mmaRowsLinearIndex(const TileLayout &layout, int64_t r);
  mlir::Value mmaColumn(const TileLayout &layout, int64_t r, const MmaThread &t);
  // Debugging (KernelLoweringDebug.cpp).
  mlir::LogicalResult lowerPrint(mlir::tile::PrintOp op);
  mlir::LogicalResult lowerAssert(mlir::tile::AssertOp op);
  mlir::LogicalResult lowerGridDependencyControl(mlir::tile::GridDependencyControlOp op);
  /// In a kernel that waits for its predecessors and copies loads ahead (kernel-start copies,
  /// pipeline prologues), the wait at kernel start, before any copy.
  void waitBeforeCopiesAhead();
  mlir::LogicalResult checkSharedMemoryLimit();
  mlir::LogicalResult checkRegisterLimit();

public:
  // Helpers.
  TileLayout layoutOf(mlir::Type tensorType) const;
  /// The linear element index (i32) register `r` of this thread holds.
  mlir::Value linearIndex(const TileLayout &layout, int64_t r);
  /// The multi-index (i32 per dim) of a linear index within `shape`.
  llvm::SmallVector<mlir::Value> delinearize(mlir::Value linear, llvm::ArrayRef<int64_t> shape);
  /// `v` (an integer) through an asm move LLVM cannot see through (KernelLowering.cpp).
  mlir::Value opaque(mlir::Value v);
  /// While alive, the lowered values of these scalars are opaque() copies: the cold paths
  /// that recompute addresses from them add no induction variables to the loops around.
  class OpaqueScalars {
  public:
    OpaqueScalars(KernelLowering &l, mlir::ValueRange scalars);
    ~OpaqueScalars();

  private:
    KernelLowering &l_;
    llvm::DenseMap<mlir::Value, mlir::Value> saved_;
  };
  /// Whether this thread owns register `r` (false for replicas).
  mlir::Value owns(const TileLayout &layout, int64_t r);
  mlir::Value i32(int64_t v);
  /// fence.proxy.async.shared::cta: shared-memory writes of the generic proxy (stores,
  /// cp.async) become visible to wgmma, which reads through the async proxy.
  void asyncProxyFence();
  mlir::Value i64(int64_t v);
  mlir::Value toI64(mlir::Value v);
  mlir::Value boolAnd(mlir::Value a, mlir::Value b);
  /// Emits `cond ? then() : otherwise` (an scf.if with one result).
  mlir::Value ifValue(mlir::Value cond, mlir::Type type, const std::function<mlir::Value()> &then,
                      const std::function<mlir::Value()> &otherwise);
  void ifThen(mlir::Value cond, const std::function<void()> &then);
  /// Register `r`'s element indices (i64 per array dim) for a per-element access (gather,
  /// scatter, atomics) with one index tile per dim; `ok` becomes its mask (when given) and the
  /// bounds check.
  llvm::SmallVector<mlir::Value> elementIndices(const Array &array, mlir::ValueRange indexTiles, mlir::Value mask,
                                                int64_t r, mlir::Value &ok);
  /// Whether the tile at `tileIndices` (counted in tiles of `shape`) lies wholly inside the array
  /// (i1, uniform).
  mlir::Value tileInside(const Array &array, mlir::ValueRange tileIndices, llvm::ArrayRef<int64_t> shape);
  /// Element pointer into an array for element indices (i64 per array dim).
  mlir::Value elementPointer(const Array &array, llvm::ArrayRef<mlir::Value> indices);
  mlir::Value loadElement(mlir::Type type, mlir::Value ptr);
  void storeElement(mlir::Value value, mlir::Value ptr);
  /// The dynamic shared memory every data movement uses (`__tile_smem`, address space 3).
  mlir::Value sharedBase();
  /// The shared window address (i32) of the start of `__tile_smem`, for the instructions that
  /// take 32-bit shared addresses (stage descriptors, mbarriers, bulk copies).
  mlir::Value sharedWindowBase();
  /// Pointer to element `index` (i32) of an array of `type` elements (stored as
  /// storageType(type)) that starts `byteOffset` bytes into the shared memory: the one way
  /// the lowering addresses shared memory.
  mlir::Value sharedPointer(mlir::Type type, int64_t byteOffset, mlir::Value index);
  /// Pointer to element `index` (i32) of an array of `type` elements that starts `byteOffset`
  /// (i32) bytes into the pipeline stages, which precede the scratch in shared memory.
  mlir::Value stagePointer(mlir::Type type, mlir::Value byteOffset, mlir::Value index);
  /// Writes a tile's elements at `byteOffset` in shared memory, in the tile's row-major order;
  /// `readShared` reads one element by linear index. With `rowPitch`, rows (runs of the last
  /// dimension) start every `rowPitch` elements instead of back to back: padding that keeps
  /// column accesses free of bank conflicts.
  void writeShared(const Elements &values, const TileLayout &layout, mlir::Type type, int64_t byteOffset,
                   int64_t rowPitch = 0);
  /// In a replicated layout only the owners performed an atomic: the replicas take the
  /// owners' results through shared memory. Nothing to do in other layouts.
  void shareOwnersValues(Elements &values, const TileLayout &layout, mlir::Type type);
  mlir::Value readShared(mlir::Type type, int64_t byteOffset, mlir::Value linear);
  /// Stores registers r .. r + width - 1 (one run of consecutive elements) at `ptr`: one vector
  /// store, or for width 1 a store by the register's owner only (replicas stay silent).
  void storeRun(const Elements &values, const TileLayout &layout, mlir::Type type, int64_t r, int64_t width,
                mlir::Value ptr);
  /// Where linear element `linear` of rows `rowLength` long sits when rows start every
  /// `rowPitch` elements (padding against bank conflicts); `linear` itself for pitch 0.
  mlir::Value paddedPosition(mlir::Value linear, int64_t rowLength, int64_t rowPitch);
  void barrier();
  /// Records that the op being lowered needs `bytes` of shared memory (the kernel needs the
  /// largest such amount; the op is named when that exceeds the target's limit).
  void reserveShared(int64_t bytes);
  /// Row-major linear index (i32) of a multi-index within `shape`.
  mlir::Value linearize(llvm::ArrayRef<mlir::Value> idx, llvm::ArrayRef<int64_t> shape);
  static int64_t alignTo16(int64_t bytes) { return (bytes + 15) / 16 * 16; }
  /// Rounds an f32 to the nearest tf32 (ties to even), as the interpreter and cvt.rn.tf32 do.
  mlir::Value roundToTf32(mlir::Value f32);
  mlir::Value zeroOf(mlir::Type type);

  mlir::tile::KernelOp kernel_;
  mlir::OpBuilder b_;
  mlir::Location loc_;
  int64_t numThreads_;
  mlir::Value tid_;
  mlir::LLVM::GlobalOp smem_;
  GpuTarget target_;
  /// While conversionWithLdmatrixLeaves computes one register: the staged tiles' elements for
  /// it, which rematerializedElement takes instead of reading them again.
  llvm::DenseMap<mlir::Value, mlir::Value> rematerializedLeaves_;
  int64_t sharedBytes_ = 0;
  /// Bytes of the loads copied at kernel start (tile.prefetch_bytes), at the start of shared
  /// memory; and whether a prefetched load has waited for those copies yet.
  int64_t prefetchBytes_ = 0;
  bool prefetchWaited_ = false;
  /// Loads before the body's first loop are a kernel-start group of their own, committed
  /// before the `prefetchGroupsAfterEarly_` (0 or 1) group of the loads after it.
  bool earlyPrefetchWaited_ = false;
  int64_t prefetchGroupsAfterEarly_ = 0;
  /// Bytes of pipeline stages after them (tile.pipeline_bytes). Inside a pipelined loop the
  /// scratch of sharedBase() follows the stages; elsewhere the stages are idle (every copy
  /// waited for, behind a barrier) and the scratch starts over them, after the prefetches.
  int64_t pipelineBytes_ = 0;
  /// Pipelined loops being lowered around the current op.
  int64_t pipelineDepth_ = 0;
  /// Where sharedBase() is, in bytes from the start of shared memory.
  int64_t scratchOffset() const;
  bool pipelineOverflow_ = false;
  /// TMA: the descriptor parameters (tile.tma_maps order), the mbarriers' offset (a constant set
  /// at the end) and bytes (after the kernel's other shared memory), the first stage barrier of each pipelined loop
  /// with TMA loads, and the first of the two kernel-start groups' barriers.
  llvm::SmallVector<mlir::Value> tmaParams_;
  mlir::arith::ConstantOp mbarrierOffset_;
  int64_t mbarrierBytes_ = 0;
  llvm::DenseMap<mlir::Operation *, int64_t> tmaLoopBarriers_;
  int64_t tmaPrefetchBarrier_ = 0;
  /// TMA stores: their staging buffers' offset, the mask of the counter's parity (1: two
  /// buffers) and whether there is one buffer (constants set at the end), the bytes of a
  /// buffer, and the count of stores so far (an i32 alloca).
  mlir::arith::ConstantOp tmaStagingOffset_, tmaStagingParityMask_, tmaStagingSingle_;
  int64_t tmaStagingBufferBytes_ = 0;
  int64_t tmaStoreBuffers_ = 1;
  mlir::Value tmaStoreCount_;
  bool prefetchGroupTma_[2] = {false, false};
  /// The byte offset (i32) of the stage a pipelined loop's iteration reads, per loop.
  llvm::DenseMap<mlir::Operation *, mlir::Value> pipelineStageOffset_;
  /// Per pipelined loop with a pending wgmma product: the issue of the next stage's copies,
  /// which that product's lowering emits after its wait (KernelLoweringPipeline.cpp).
  llvm::DenseMap<mlir::Operation *, std::function<void()>> deferredCopies_;
  /// The product whose wgmma wait is deferred: its result, its groups' accumulators as
  /// issued (tiles_ holds them unwaited until the wait) and the A fragments the instructions
  /// read from registers (kept unchanged until the wait).
  struct DeferredWgmma {
    mlir::Value result;
    struct Group {
      mlir::Value accumulators; // the wgmma struct
      int64_t firstReg, count;
    };
    llvm::SmallVector<Group> groups;
    llvm::SmallVector<mlir::Value> aRegisters;
    int64_t opsOverlapped = 0;
  };
  std::optional<DeferredWgmma> deferredWgmma_;
  /// tgpu.store_shared wrote a buffer that no product has read yet (finishBufferWrites).
  bool bufferWritesPending_ = false;
  /// The largest alignment of the kernel's buffers (0 until bufferRegionPad computes it).
  int64_t bufferAlign_ = 0;
  mlir::Operation *currentOp_ = nullptr;
  mlir::Operation *largestSharedUser_ = nullptr;
  llvm::DenseMap<mlir::Value, Elements> tiles_;
  llvm::DenseMap<mlir::Value, mlir::Value> scalars_;
  llvm::DenseMap<mlir::Value, Array> arrays_;
  /// The warp-specialized loop (null when none), the threads of its producer warpgroup beyond
  /// numThreads_, the registers each side asks for (0: no setmaxnreg), and whether the
  /// producer thread's code is being built (onThreadZero then runs its code directly).
  mlir::scf::ForOp specializedLoop_;
  int64_t producerThreads_ = 0, producerRegisters_ = 0, consumerRegisters_ = 0;
  bool producing_ = false, pingPong_ = false;

  mlir::Value scalar(mlir::Value v) { return scalars_.lookup(v); }
  const Elements &elements(mlir::Value v) { return tiles_[v]; }
};

/// The uniform condition (i1) for `width`-element vector accesses of `array` along
/// `runDimension`: unit stride there, base pointer and other strides multiples of the access.
mlir::Value vectorAligned(KernelLowering &l, const KernelLowering::Array &array, mlir::tile::ArrayType arrayType,
                          size_t runDimension, int64_t width);

/// scf operands and results as registers: tiles become this thread's elements (flatten), and
/// consecutive registers from `flat[pos]` on are bound back to `values` (unflatten).
void flatten(KernelLowering &l, mlir::ValueRange values, llvm::SmallVectorImpl<mlir::Value> &out);
void unflatten(KernelLowering &l, mlir::ValueRange values, mlir::ValueRange flat, size_t pos);

} // namespace tile::codegen
