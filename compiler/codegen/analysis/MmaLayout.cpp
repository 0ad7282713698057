#include "compiler/codegen/analysis/MmaLayout.h"
#include "compiler/codegen/analysis/ElementStorage.h"
#include "compiler/codegen/analysis/OperandSources.h"
#include "compiler/codegen/analysis/StageLayout.h"
#include "dialect/gpu/TileGpu.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;

namespace tile::codegen {

std::optional<mlir::tile::MmaInstruction> recordedMmaInstruction(Operation *op) {
  if (auto recorded = op->getAttrOfType<mlir::tile::MmaInstructionAttr>(kMmaInstructionAttr))
    return recorded.getValue();
  return std::nullopt;
}

mlir::tile::MmaInstruction chooseMmaInstruction(mlir::tile::MmaOp op, const GpuTarget &target, int64_t numThreads,
                                                std::string &why) {
  using mlir::tile::MmaInstruction;
  why = tensorCoreRefusal(op, target);
  if (!why.empty()) {
    why = "no Tensor Cores for this product: " + why + "; using FMA";
    return MmaInstruction::fma;
  }
  auto layout = dyn_cast_or_null<mlir::tile::MmaLayoutAttr>(op.getAcc().getType().getEncoding());
  if (!layout)
    layout = accumulatorLayoutFor(op, target, numThreads).value_or(nullptr);
  if (!layout) {
    // The lowering runs such a product on mma.sync all the same, its accumulator read from and
    // written to shared memory (lowerMmaTensorCore): the decision says so.
    MmaWarpGrid g = MmaWarpGrid::of(op, numThreads);
    why = "Tensor Cores keep the accumulator in registers only when every warp has work: this product has work "
          "for " +
          std::to_string(g.numWarps()) + " of " + std::to_string(numThreads / 32) +
          " warps; using mma.sync with the accumulator in shared memory";
    return MmaInstruction::mma_sync;
  }
  if (usesWgmma(op, target, layout, &why)) {
    why.clear();
    return MmaInstruction::wgmma;
  }
  why = target.hasWgmma() ? why + "; using mma.sync" : "";
  return MmaInstruction::mma_sync;
}

void recordMmaInstruction(mlir::tile::MmaOp op, const GpuTarget &target, int64_t numThreads) {
  std::string why;
  mlir::tile::MmaInstruction instruction = chooseMmaInstruction(op, target, numThreads, why);
  if (!why.empty())
    op.emitRemark() << why;
  op->setAttr(kMmaInstructionAttr, mlir::tile::MmaInstructionAttr::get(op.getContext(), instruction));
}

int64_t mmaInstructionK(Type operand) {
  if (operand.isBF16() || operand.isF16())
    return 16;
  if (isFloat8(operand))
    return 32;
  return operand.isTF32() ? 8 : 0;
}

std::string tensorCoreRefusal(mlir::tile::MmaOp op, const GpuTarget &target) {
  auto aType = op.getA().getType(), bType = op.getB().getType();
  Type ea = aType.getElementType(), eacc = op.getAcc().getType().getElementType();
  int64_t rank = aType.getRank();
  int64_t m = aType.getDimSize(rank - 2), kDim = aType.getDimSize(rank - 1), n = bType.getDimSize(rank - 1);
  int64_t k = mmaInstructionK(ea);
  std::string why;
  llvm::raw_string_ostream os(why);
  if (!target.hasMmaM16N8K16())
    os << "sm_" << target.sm << " has no mma.sync.m16n8k16 (needs sm_80+)";
  else if (!k)
    os << "operands are " << ea << " (Tensor Cores take bf16, f16, tf32 or 8-bit floats)";
  else if (isFloat8(ea) && !target.hasWgmma())
    os << "8-bit float operands run on Tensor Cores through wgmma only (sm_90a)";
  else if (isFloat8(ea) != isFloat8(bType.getElementType()))
    os << "A is " << ea << " and B " << bType.getElementType();
  else if (!eacc.isF32())
    os << "the accumulator is " << eacc << " (Tensor Cores accumulate in f32)";
  else if (m % 16)
    os << "M = " << m << " is not a multiple of 16";
  else if (kDim % k)
    os << "K = " << kDim << " is not a multiple of " << k;
  else if (n % 8)
    os << "N = " << n << " is not a multiple of 8";
  return why;
}

uint64_t wgmmaDescriptor(uint32_t sharedAddress, uint32_t leadingByteOffset, uint32_t strideByteOffset,
                         int64_t swizzleBytes) {
  // PTX ISA "Matrix Descriptor Format": start address, leading and stride byte offsets in
  // 16-byte units (14 bits each); base offset 0 (buffers start on the swizzle pattern's
  // period) and the swizzle mode in bits 62-63.
  return (uint64_t(sharedAddress >> 4) & 0x3FFF) | (uint64_t(leadingByteOffset >> 4) & 0x3FFF) << 16 |
         (uint64_t(strideByteOffset >> 4) & 0x3FFF) << 32 | wgmmaSwizzleMode(swizzleBytes) << 62;
}

// Whether shared memory holds `op`'s operands K-major: A as computed or loaded (not a
// transpose), B as the transpose of a tile stored N x K; once tile-place-shared-operands has
// given them buffers, as the buffers' views say (StageLayout.h).
static bool float8OperandsKMajor(mlir::tile::MmaOp op) {
  auto kMajor = [](Value operand, bool isB) {
    if (auto read = operand.getDefiningOp<tgpu::LoadSharedOp>())
      return read.getBuffer().getType().getNvmma().getTransposed() == isB;
    return bool(lastTwoSwapped(operand)) == isB;
  };
  return kMajor(op.getA(), false) && kMajor(op.getB(), true);
}

bool usesWgmma(mlir::tile::MmaOp op, const GpuTarget &target, mlir::tile::MmaLayoutAttr acc, std::string *why) {
  auto fail = [&](const char *reason) {
    if (why)
      *why = reason;
    return false;
  };
  if (!target.hasWgmma())
    return fail("wgmma needs sm_90a");
  Type ea = op.getA().getType().getElementType();
  bool float8 = isFloat8(ea);
  if (!ea.isBF16() && !ea.isF16() && !float8)
    return fail("wgmma here takes bf16, f16 or 8-bit float operands");
  if (!acc)
    return fail("the accumulator is not register-resident (#tile.mma)");
  if (acc.getWarpsN() != 1 || acc.getWarpsB() != 1 || acc.getWarpsM() % 4 != 0)
    return fail("wgmma needs whole warpgroups along M (M a multiple of 64 per warpgroup)");
  int64_t rank = op.getA().getType().getRank();
  if (op.getA().getType().getDimSize(rank - 1) % (float8 ? 32 : 16) != 0)
    return fail(float8 ? "wgmma needs K to be a multiple of 32 for 8-bit floats"
                       : "wgmma needs K to be a multiple of 16");
  if (float8 && rank != 2)
    return fail("wgmma runs 8-bit float products in two dimensions only");
  // Shared memory holds A as computed or loaded and B's transpose as its input (stages and
  // buffers alike), and wgmma reads 8-bit operands K-major only.
  if (float8 && !float8OperandsKMajor(op))
    return fail("wgmma reads 8-bit float operands K-major only: A as an M x K tile, B as the transpose of an N x K "
                "one (ct.transpose of a tile loaded N x K)");
  return true;
}

bool usesTensorCores(mlir::tile::MmaOp op, const GpuTarget &target) { return tensorCoreRefusal(op, target).empty(); }

MmaWarpGrid MmaWarpGrid::choose(int64_t batch, int64_t m, int64_t n, int64_t numThreads) {
  int64_t warps = numThreads / 32;
  MmaWarpGrid g;
  g.warpsM = std::min(warps, m / 16);
  g.warpsN = std::min(warps / g.warpsM, n / 8);
  g.warpsB = std::min(warps / (g.warpsM * g.warpsN), batch);
  return g;
}

MmaWarpGrid MmaWarpGrid::of(mlir::tile::MmaOp op, int64_t numThreads) {
  auto acc = op.getAcc().getType();
  int64_t rank = acc.getRank();
  return choose(rank == 3 ? acc.getDimSize(0) : 1, acc.getDimSize(rank - 2), acc.getDimSize(rank - 1), numThreads);
}

std::optional<mlir::tile::MmaLayoutAttr> accumulatorLayoutFor(mlir::tile::MmaOp op, const GpuTarget &target,
                                                              int64_t numThreads) {
  if (!usesTensorCores(op, target))
    return std::nullopt;
  MmaWarpGrid g = MmaWarpGrid::of(op, numThreads);
  if (g.numWarps() != numThreads / 32)
    return std::nullopt;
  return mlir::tile::MmaLayoutAttr::get(op.getContext(), g.warpsB, g.warpsM, g.warpsN);
}

TileLayout layoutOfType(Type tensorType, int64_t numThreads) {
  auto type = cast<RankedTensorType>(tensorType);
  TileLayout layout(type.getShape(), numThreads);
  if (auto mma = dyn_cast_or_null<mlir::tile::MmaLayoutAttr>(type.getEncoding())) {
    layout.mmaWarps[0] = mma.getWarpsB();
    layout.mmaWarps[1] = mma.getWarpsM();
    layout.mmaWarps[2] = mma.getWarpsN();
    layout.perThread = layout.numElements / numThreads;
    layout.vector = 1;
    layout.replicated = false;
  } else if (auto rows = dyn_cast_or_null<mlir::tile::MmaRowsLayoutAttr>(type.getEncoding())) {
    layout.mmaWarps[0] = rows.getWarpsB();
    layout.mmaWarps[1] = rows.getWarpsM();
    layout.mmaWarps[2] = rows.getWarpsN();
    layout.mmaRows = true;
    // Two rows per 16-row tile, over the warps along batch and M.
    layout.perThread = layout.numElements / 8 / (rows.getWarpsB() * rows.getWarpsM());
    layout.vector = 1;
    layout.replicated = false;
  }
  return layout;
}

mlir::tile::LoadOp operandLoad(Value operand) {
  while (isa_and_nonnull<mlir::tile::ReshapeOp, mlir::tile::PermuteOp>(operand.getDefiningOp()))
    operand = operand.getDefiningOp()->getOperand(0);
  return operand.getDefiningOp<mlir::tile::LoadOp>();
}

bool runsAsWgmma(mlir::tile::MmaOp op, const GpuTarget &target, std::string *why) {
  if (!usesTensorCores(op, target))
    return false;
  auto acc = llvm::dyn_cast_or_null<mlir::tile::MmaLayoutAttr>(op.getAcc().getType().getEncoding());
  return usesWgmma(op, target, acc, why) && recordedMmaInstruction(op) != mlir::tile::MmaInstruction::mma_sync;
}

} // namespace tile::codegen
