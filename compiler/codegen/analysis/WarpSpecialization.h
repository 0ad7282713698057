// Warp specialization of a pipelined loop (tile-warp-specialize, WarpSpecialize.cpp; lowered by
// KernelLoweringWarpSpecialize.cpp): one warpgroup more than the kernel's threads, whose first
// thread issues the loop's bulk copies (a producer), while the kernel's own threads (the
// consumers) only wait for each stage's copies and release the stage when they are done. The
// producer runs ahead as far as the stages allow, so no consumer thread ever waits to issue a
// copy, and the consumer warpgroups drift apart (one's softmax beside another's products).
#pragma once

#include "dialect/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tile::codegen {

/// On a pipelined scf.for: its copies are issued by a producer warpgroup, a dictionary
/// {producer_threads, producer_registers, consumer_registers, ping_pong}: the threads added to
/// the kernel's launch, the per-thread registers each side asks for with setmaxnreg (0: none),
/// and whether two consumer warpgroups take turns issuing the loop's products (kPingPongKey).
inline constexpr llvm::StringLiteral kWarpSpecializeAttr = "tile.warp_specialize";

/// The producer is one warpgroup: setmaxnreg acts on whole warpgroups.
inline constexpr int64_t kProducerThreads = 128;
/// What the producer keeps: it only computes indices and issues copies.
inline constexpr int64_t kProducerRegisters = 24;

/// Ping-pong order: where two consumer warpgroups share a loop of two or more wgmma products,
/// each issues a product only after the other issued its previous one (named barriers 2 and
/// 3). The aim is that one's products run on the Tensor Cores while the other computes
/// between its products (attention's softmax); measured on an H100, a turn of one product
/// achieves that only at D = 128 non-causal (README, attention).
inline constexpr llvm::StringLiteral kPingPongKey = "ping_pong";

/// The ops of the kernel's top block that the producer recomputes for `loop`: those its bounds
/// and its copied loads' indices depend on, in block order; nullopt (with `why`) when one of
/// them is not scalar arithmetic or a grid/array query.
std::optional<llvm::SmallVector<mlir::Operation *>> producerPrologue(mlir::scf::ForOp loop, std::string &why);

/// Why the copies of `loop` cannot be issued by a producer warpgroup, or nullopt when they can:
/// a loop of the kernel's top block, pipelined, every copied load by TMA, no product left
/// pending across iterations (its scheme issues copies from the consumers), no bulk store, and
/// a producer prologue of scalar ops.
std::optional<std::string> whyNotWarpSpecialized(mlir::scf::ForOp loop);

/// The registers per thread the consumers ask for (setmaxnreg.inc) beside a producer warpgroup
/// at kProducerRegisters, within the block's allocation at launch (240 for 256 consumers, 112
/// for 512), or 0 when they need not ask (fewer than 256 consumers: the launch already gives
/// each of them the most a thread may have).
int64_t consumerRegisters(int64_t consumerThreads);

} // namespace tile::codegen
