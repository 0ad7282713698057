//===- Passes.td - code generation passes ---------------------*- tablegen -*-===//

#ifndef TILE_CODEGEN_PASSES_TD
#define TILE_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

// The target options of every pass that depends on the target, declared once; the passes
// check them with GpuTarget::parse and GpuTarget::checkNumThreads (GpuTarget.h). They are
// fallbacks: a module's tile.target and a kernel's num_threads (tile-choose-threads) win.
defvar TileTargetOptions = [
  Option<"numThreads", "num-threads", "int64_t", /*default=*/"128",
         "Threads per block (a power of two from 32 to 1024)">,
  Option<"arch", "arch", "std::string", /*default=*/"\"sm_90a\"",
         "Target GPU (sm_70 ... sm_90a): picks Tensor Core instructions and bounds shared memory">
];

def TileChooseThreads : Pass<"tile-choose-threads", "::mlir::ModuleOp"> {
  let summary = "Record the target on the module and each kernel's threads per block";
  let description = [{
    The first code generation pass. Records the target (`tile.target`, the `arch` option;
    sm_90a stays distinct from sm_90) on the module, where the later passes read it, and gives
    every `tile.kernel` without one a `num_threads` attribute: the `num-threads` option when
    it is not 0, else a choice from the kernel's products. A block starts at 128 threads (one
    warpgroup) and doubles, up to 512, while the largest accumulator would take more than 128
    f32 registers per thread (beside its operands, the 255-register limit then spills) and
    doubling keeps the product on the instruction it had (wgmma needs its warpgroups stacked
    along M, 64 rows each; mma.sync needs work for every warp). A kernel without products
    starts at 128 too and doubles, up to 512, while its widest tile holds more than 32 elements
    per thread (row kernels: a 4096-wide row at 128 threads, an 8192-wide one at 256). A kernel option
    (`@ct.kernel(num_threads=N)`) is kept as it is. Every choice above 128 gets a remark
    naming the product or the tile that asked for it.
  }];
  let options = [
    Option<"numThreads", "num-threads", "int64_t", /*default=*/"0",
           "Threads per block for kernels without the num_threads option (0: chosen from the tiles)">,
    Option<"arch", "arch", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU (sm_70 ... sm_90a), recorded as the module's tile.target">
  ];
}

def TileLoadOperandsInMemoryOrder : Pass<"tile-load-operands-in-memory-order", "::mlir::ModuleOp"> {
  let summary = "Load transposed Tensor Core operands in memory order and permute them";
  let description = [{
    A `tile.load` with `order` (a transposed view) whose tile only feeds `tile.mma` operands,
    through reshapes, becomes a load in the array's order followed by a `tile.permute`: the
    copy can then go by TMA into pipeline stages, and the product folds the permute into how it
    reads the operand (K loaded as K^T for Q.K^T becomes wgmma's K-major B operand).
  }];
}

def TileSelectMma : Pass<"tile-select-mma", "::mlir::ModuleOp"> {
  let summary = "Choose the instruction of every matrix product";
  let description = [{
    Records on every `tile.mma` the instruction that runs it (`tile.mma_instruction`):
    `wgmma` on sm_90a for bf16/f16 products whose accumulator spans whole warpgroups stacked
    along M; `mma.sync` on sm_80+ for bf16/f16/tf32 products with f32 accumulators, M a
    multiple of 16, N of 8, K of the instruction's K and work for every warp; `fma` otherwise.
    The choice follows from the target (`tile.target`), the dtypes, the shapes and the kernel's
    `num_threads`. Every product that does not get the fastest instruction of its target gets
    a remark saying why (`wgmma here takes bf16/f16 operands; using mma.sync`). An instruction
    written by hand is kept when the product can run it (a slower one included) and is an
    error otherwise.
  }];
  let options = TileTargetOptions;
}

def TileSwapMmaOperands : Pass<"tile-swap-mma-operands", "::mlir::ModuleOp"> {
  let summary = "Put a product's computed operand in wgmma's register A slot";
  let description = [{
    A wgmma product `D = A.B` inside a loop whose A is loaded from memory and whose B is
    computed in registers (element-wise ops) becomes `D^T = B^T.A^T`: the computed operand is
    then wgmma's A, which the Tensor Cores read from registers, instead of going through shared
    memory behind a barrier on every iteration, and the loaded operand is read transposed from
    shared memory (16-bit elements). `B^T` is built by cloning B's element-wise ops with
    transposed shapes down to loads (read transposed), splat constants and broadcast rows or
    columns; the loop carries the accumulator transposed (its initial value transposed once
    before the loop, its result once after). The swapped product gets `tile.mma_swapped`.
    A product is left alone, with a remark saying why, when its operands are not 16-bit, its
    accumulator is not the loop's own (or the loop uses it for anything else), B is computed
    from something that does not transpose for free, or the swapped shape would not run as
    wgmma.
  }];
  let options = TileTargetOptions;
}

def TileAssignLayouts : Pass<"tile-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "Give Tensor Core products the mma accumulator layout";
  let description = [{
    Every `tile.mma` that code generation runs on Tensor Cores, with work for every warp, gets
    its accumulator and result in the `#tile.mma` layout (mma.sync's C/D fragments in
    registers), with `tile.convert_layout` ops from and to the canonical layout around it.
    `tile-remove-layout-conversions` then removes the conversions it can.
  }];
  let options = TileTargetOptions;
}

def TileRemoveLayoutConversions : Pass<"tile-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "Remove layout conversions by moving element-wise ops and loops into the layout";
  let description = [{
    Removes round trips through shared memory: a conversion of a conversion folds; a
    conversion of an element-wise op whose operands are conversions from the target layout,
    splat constants or broadcast scalars becomes the element-wise op in that layout; and a loop
    that carries a tile converted to a layout at the top of every iteration and back at the
    bottom carries it in that layout instead (the accumulator of a K loop stays in mma.sync's
    registers across iterations).
  }];
}

def TilePipelineLoops : Pass<"tile-pipeline-loops", "::mlir::ModuleOp"> {
  let summary = "Copy the loads of loops into shared-memory stages iterations ahead";
  let description = [{
    Decides, per `scf.for`, which `tile.load`s of its body are copied asynchronously into
    shared memory `S - 1` iterations before the iteration that reads them, and the number of
    stages `S`: from the loads' `latency` hints (3 stages without hints, 4 for latency 4-6, 5
    above), reduced to fit the shared memory left at the kernel's occupancy. The decisions are
    attributes (`tile.pipeline_stages` and `tile.pipeline_stage_bytes` on the loop,
    `tile.pipeline_offset` on each load, `tile.pipeline_bytes` on the kernel) that
    `tile-lower-to-llvm` implements with `cp.async` and commit/wait groups; every load of a loop
    that stays synchronous gets a remark saying why. On sm_90 the mbarriers of possible TMA
    copies (loads of aligned arguments) are kept out of the budget; when the kernel-start
    copies' two do not fit beside their loads, `tile.no_tma_prefetch` on the kernel keeps those
    copies on `cp.async`.
  }];
  let options = TileTargetOptions # [
    Option<"stages", "stages", "int64_t", /*default=*/"0",
           "Stages per pipelined loop: 0 derives them from the latency hints, 1 turns pipelining off">
  ];
}

def TilePlaceTma : Pass<"tile-place-tma", "::mlir::ModuleOp"> {
  let summary = "Decide which copied loads the Tensor Memory Accelerator serves";
  let description = [{
    For each `tile.load` that `tile-pipeline-loops` copies ahead (a loop's stages or a
    kernel-start copy), decides whether one thread can copy it with `cp.async.bulk.tensor`
    instead of every thread issuing `cp.async`: on sm_90, from an array argument with the
    `tile.aligned` facts, `allow_tma` not false, dimensions in memory order, rank 2-5, zero or
    undetermined padding (NaN for floats: TMA's fill), boxes of at most 256 per dimension with
    rows of a multiple of 16 bytes, and a stage layout TMA writes (row-major, or a Tensor Core
    operand's swizzled column blocks of 32, 64 or 128 bytes). Decisions: `tile.tma` (an index)
    on the load and the descriptors in `tile.tma_maps` on the kernel; every copied load that
    keeps `cp.async` gets a remark saying why.
  }];
  let options = TileTargetOptions;
}

def TileWarpSpecialize : Pass<"tile-warp-specialize", "::mlir::ModuleOp"> {
  let summary = "Give a pipelined loop's copies to a producer warpgroup";
  let description = [{
    On sm_90a, for a loop of a kernel's top block with two or more wgmma products (attention's
    Q K^T and P V) whose every copied load is a TMA copy: the block gets one warpgroup more,
    whose first thread issues the loop's copies (waiting for each stage to be released),
    while the kernel's threads only wait for each stage's copies and release it when done, so
    that no consumer thread stops to issue copies and the consumer warpgroups drift apart (one's
    softmax beside another's products). With 256 or more consumer threads, setmaxnreg moves
    registers from the producer to them. Decision: `tile.warp_specialize` on the loop, a
    dictionary {producer_threads, producer_registers, consumer_registers}; a remark for each
    loop with two or more products, chosen or not and why (WarpSpecialization.h).
  }];
  let options = TileTargetOptions;
}

def TilePlaceSharedOperands : Pass<"tile-place-shared-operands", "::mlir::ModuleOp"> {
  let summary = "Give each wgmma operand read from shared memory a tgpu buffer";
  let description = [{
    For every product that runs as wgmma, each operand that is neither in registers (A in the
    `#tile.mma` layout) nor in a pipeline stage read in place gets `tgpu.alloc_shared`,
    `tgpu.store_shared` and `tgpu.load_shared` in front of the product, which reads the
    buffer in place. The buffer holds the tile as computed (vector stores), or, for an operand
    that swaps the last two dimensions of a `tile.permute`, the permute's input behind a
    `tgpu.transpose` view (wgmma's transpose bit: no transpose in registers). Its NVMMA swizzle
    is the widest its rows allow. A product left pending across loop iterations (`tile.wgmma_pending`) that
    reads such a buffer is waited for in its own iteration.
  }];
  let options = TileTargetOptions;
  let dependentDialects = ["::mlir::tgpu::TileGpuDialect"];
}

def TileAllocateShared : Pass<"tile-allocate-shared", "::mlir::ModuleOp"> {
  let summary = "Place the tgpu dialect's shared buffers by liveness";
  let description = [{
    Gives every `tgpu.alloc_shared` an offset in the block's shared memory (`tgpu.offset`):
    a buffer is live from its allocation to its last use (through `tgpu.stage` and
    `tgpu.transpose` views and the users of `tgpu.load_shared`'s tile, which a product reads
    in place; a use in a loop keeps it live until the loop ends), buffers whose
    live ranges do not overlap may share bytes, and each starts on its encoding's alignment
    (8 rows of the swizzle: 1024 bytes for the 128-byte NVMMA swizzle; 16 bytes otherwise).
    The op holding the allocations gets `tgpu.shared_bytes`; more than a block may have on the
    target is an error with the figures and a note where the most bytes are live at once.
  }];
  let options = TileTargetOptions;
}

def TileLowerToLLVM : Pass<"tile-lower-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower tile kernels to NVVM kernel functions";
  let description = [{
    Each `tile.kernel` becomes an `llvm.func` marked `nvvm.kernel` whose parameters follow the
    kernel ABI (an array is pointer, shape[rank], strides[rank], all i64 but the pointer).
    Tiles are distributed over the block's threads with the canonical layout; ops that move
    data between threads go through dynamic shared memory. The launch facts (threads per
    block, shared memory, parameters, constants) are recorded as `tile.*` attributes on the
    function for the metadata writer. Ops without a lowering are reported at their location.
  }];
  let options = !listconcat(TileTargetOptions, [
    Option<"tmaStoreBuffers", "tma-store-buffers", "int64_t", /*default=*/"1",
           "Staging buffers of TMA stores: 1, or 2 (alternating; one barrier per store instead of "
           "two, when both fit at the kernel's occupancy)">,
    Option<"decisionRemarks", "decision-remarks", "bool", /*default=*/"false",
           "A remark per product (the instruction, where its operands come from) and per load "
           "(TMA, cp.async or per-thread loads); the compile pipeline turns it on for --remarks">
  ]);
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect", "::mlir::tgpu::TileGpuDialect"];
}

#endif // TILE_CODEGEN_PASSES_TD
