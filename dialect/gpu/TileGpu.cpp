//===- TileGpu.cpp - the GPU-level tile dialect ---------------------------===//
//
// Verifiers say what is wrong in the terms of the hardware rule broken (wgmma's shapes, the
// transposable element types, the swizzle widths).
//
//===----------------------------------------------------------------------===//

#include "dialect/gpu/TileGpu.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::tgpu;

#include "dialect/gpu/TileGpuDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/gpu/TileGpuAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialect/gpu/TileGpuTypes.cpp.inc"

#define GET_OP_CLASSES
#include "dialect/gpu/TileGpuOps.cpp.inc"

void TileGpuDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "dialect/gpu/TileGpuOps.cpp.inc"
      >();
}

void TileGpuDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialect/gpu/TileGpuAttrs.cpp.inc"
      >();
}

void TileGpuDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialect/gpu/TileGpuTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Encodings and the buffer type
//===----------------------------------------------------------------------===//

LogicalResult NvmmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t swizzle, bool) {
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "NVMMA swizzle " << swizzle << " must be 0, 32, 64 or 128 bytes";
  return success();
}

LogicalResult PaddedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t pitch) {
  if (pitch <= 0)
    return emitError() << "padded rows need a positive pitch, not " << pitch;
  return success();
}

// The largest shared buffer the verifier accepts (4 GiB, far above any GPU's shared memory):
// every byte count and offset sum the passes compute from verified types then fits in 64 bits.
static constexpr int64_t kMaxSharedBufferBytes = int64_t(1) << 32;

// Bits an element takes in memory (tf32 is stored in 32).
static int64_t elementBits(Type t) { return t.isTF32() ? 32 : t.getIntOrFloatBitWidth(); }

int64_t SharedType::getElementBytes() const { return std::max<int64_t>(1, elementBits(getElementType()) / 8); }

// The bytes of a buffer of this shape, element, encoding and stages, or nullopt when that
// count does not fit in 64 bits (a type nobody could allocate, refused by the verifier).
static std::optional<int64_t> sharedBufferBytes(ArrayRef<int64_t> shape, Type elementType, Attribute encoding,
                                                int64_t stages) {
  int64_t bytes = std::max<int64_t>(1, elementBits(elementType) / 8);
  auto padded = dyn_cast_or_null<PaddedEncodingAttr>(encoding);
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t extent = padded && i + 1 == shape.size() ? padded.getPitch() : shape[i];
    if (llvm::MulOverflow(bytes, extent, bytes))
      return std::nullopt;
  }
  if (llvm::MulOverflow(bytes, std::max<int64_t>(1, stages), bytes))
    return std::nullopt;
  return bytes;
}

int64_t SharedType::getSizeInBytes() const {
  // Verified types fit (kMaxSharedBufferBytes).
  return *sharedBufferBytes(getShape(), getElementType(), getEncoding(), getStages());
}

LogicalResult SharedType::verify(function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> shape,
                                 Type elementType, Attribute encoding, int64_t stages) {
  if (shape.empty())
    return emitError() << "a shared buffer holds a tile of rank 1 or more";
  for (int64_t d : shape)
    if (d <= 0)
      return emitError() << "shared buffer dimensions must be positive, not " << d;
  if (!elementType.isIntOrFloat())
    return emitError() << "shared buffer elements must be integers or floats, not " << elementType;
  if (stages < 0)
    return emitError() << "a shared buffer's stages must be 0 (none) or more, not " << stages;
  if (auto nvmma = dyn_cast_or_null<NvmmaEncodingAttr>(encoding)) {
    // Leading dimensions are a batch of 2-D tiles stacked along the rows.
    if (shape.size() < 2)
      return emitError()
             << "the NVMMA layout is for tiles of rank 2 or more (a batch stacked along the rows), not rank "
             << shape.size();
    int64_t rowBytes = shape.back() * elementBits(elementType) / 8;
    if (nvmma.getSwizzle() && rowBytes % nvmma.getSwizzle())
      return emitError() << "rows of " << rowBytes << " bytes are not whole " << nvmma.getSwizzle()
                         << "-byte swizzle blocks";
    if (shape[shape.size() - 2] % 8)
      return emitError() << "the NVMMA layout needs rows in groups of 8 (core matrices), not "
                         << shape[shape.size() - 2];
  } else if (auto padded = dyn_cast_or_null<PaddedEncodingAttr>(encoding)) {
    if (padded.getPitch() < shape.back())
      return emitError() << "a row pitch of " << padded.getPitch() << " elements is shorter than the rows ("
                         << shape.back() << ")";
  } else if (encoding) {
    return emitError() << "a shared buffer's encoding is #tgpu.nvmma or #tgpu.padded, not " << encoding;
  }
  // Checked here once, so that every size and offset sum computed from verified types fits.
  std::optional<int64_t> bytes = sharedBufferBytes(shape, elementType, encoding, stages);
  if (!bytes || *bytes > kMaxSharedBufferBytes)
    return emitError() << "a shared buffer of "
                       << (bytes ? std::to_string(*bytes) + " bytes" : std::string("more than 2^63 bytes"))
                       << " is larger than any GPU's shared memory (at most " << kMaxSharedBufferBytes
                       << " bytes a buffer)";
  return success();
}

int64_t SharedType::getAlignment() const {
  NvmmaEncodingAttr nvmma = getNvmma();
  return nvmma && nvmma.getSwizzle() ? 8 * nvmma.getSwizzle() : 16;
}

int64_t SharedType::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n;
}

RankedTensorType SharedType::getTileType() const { return RankedTensorType::get(getShape(), getElementType()); }

// !tgpu.shared<64x64xbf16[, ENCODING][, stages = N]>
Type SharedType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
  int64_t stages = 0;
  if (parser.parseLess() || parser.parseDimensionList(shape, /*allowDynamic=*/false, /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("stages"))) {
      if (parser.parseEqual() || parser.parseInteger(stages))
        return {};
    } else if (parser.parseAttribute(encoding)) {
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<SharedType>(parser.getContext(), shape, elementType, encoding, stages);
}

void SharedType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType();
  if (getEncoding())
    printer << ", " << getEncoding();
  if (getStages())
    printer << ", stages = " << getStages();
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

// A staged buffer is read and written one stage at a time: the stage index is there exactly
// when the buffer has stages.
static LogicalResult verifyStageIndex(Operation *op, SharedType buffer, Value stage) {
  if (buffer.getStages() && !stage)
    return op->emitOpError() << "needs a stage index: the buffer has " << buffer.getStages() << " stages";
  if (!buffer.getStages() && stage)
    return op->emitOpError() << "has a stage index but the buffer has no stages";
  return success();
}

static LogicalResult verifyTileMatches(Operation *op, RankedTensorType tile, SharedType buffer) {
  if (tile.getShape() != buffer.getShape() || tile.getElementType() != buffer.getElementType())
    return op->emitOpError() << "tile " << tile << " does not match the buffer's " << buffer.getTileType();
  return success();
}

LogicalResult StoreSharedOp::verify() {
  if (failed(verifyStageIndex(*this, getBuffer().getType(), getStage())))
    return failure();
  return verifyTileMatches(*this, getValue().getType(), getBuffer().getType());
}

LogicalResult LoadSharedOp::verify() {
  if (failed(verifyStageIndex(*this, getBuffer().getType(), getStage())))
    return failure();
  return verifyTileMatches(*this, getValue().getType(), getBuffer().getType());
}

LogicalResult StageOp::verify() {
  SharedType in = getBuffer().getType(), out = getResult().getType();
  if (!in.getStages())
    return emitOpError() << "views a stage of a buffer without stages";
  if (out.getStages() || out.getShape() != in.getShape() || out.getElementType() != in.getElementType() ||
      out.getEncoding() != in.getEncoding())
    return emitOpError() << "result must be the buffer's type without stages, not " << out;
  return success();
}

LogicalResult TransposeOp::verify() {
  SharedType in = getBuffer().getType(), out = getResult().getType();
  if (in.getRank() < 2)
    return emitOpError() << "transposes buffers of rank 2 or more (their last two dimensions), not rank "
                         << in.getRank();
  NvmmaEncodingAttr nvmma = in.getNvmma();
  if (!nvmma)
    return emitOpError() << "transposes buffers in the NVMMA layout (what wgmma reads with its transpose bit)";
  // (An 8-bit buffer is viewed transposed as a B operand stored N x K: K-major, as wgmma reads
  // 8-bit operands; the lowering refuses any 8-bit operand it would read MN-major.)
  unsigned bits = elementBits(in.getElementType());
  if (bits != 16 && bits != 8)
    return emitOpError() << "wgmma reads transposed operands of 16-bit and 8-bit elements only, not "
                         << in.getElementType();
  SmallVector<int64_t> shape(in.getShape());
  std::swap(shape[shape.size() - 2], shape.back());
  auto expected =
      SharedType::get(getContext(), shape, in.getElementType(),
                      NvmmaEncodingAttr::get(getContext(), nvmma.getSwizzle(), !nvmma.getTransposed()), in.getStages());
  if (out != expected)
    return emitOpError() << "result must be " << expected << ", not " << out;
  return success();
}

LogicalResult WgmmaOp::verify() {
  auto shapeOf = [](Type t) -> std::pair<ArrayRef<int64_t>, Type> {
    if (auto tile = dyn_cast<RankedTensorType>(t))
      return {tile.getShape(), tile.getElementType()};
    auto buffer = cast<SharedType>(t);
    return {buffer.getShape(), buffer.getElementType()};
  };
  auto [a, aElt] = shapeOf(getA().getType());
  auto [b, bElt] = shapeOf(getB().getType());
  RankedTensorType acc = getAcc().getType();
  if (a.size() != 2 || b.size() != 2 || acc.getRank() != 2)
    return emitOpError() << "multiplies 2-D operands into a 2-D accumulator";
  if (auto buffer = dyn_cast<SharedType>(getB().getType()); buffer.getStages())
    return emitOpError() << "reads one stage of B: view it with tgpu.stage";
  if (auto buffer = dyn_cast<SharedType>(getA().getType()); buffer && buffer.getStages())
    return emitOpError() << "reads one stage of A: view it with tgpu.stage";
  int64_t m = a[0], k = a[1], n = b[1];
  if (b[0] != k || acc.getShape()[0] != m || acc.getShape()[1] != n)
    return emitOpError() << "shapes do not chain: A " << m << "x" << k << ", B " << b[0] << "x" << n << ", accumulator "
                         << acc.getShape()[0] << "x" << acc.getShape()[1];
  if (aElt != bElt || !(aElt.isBF16() || aElt.isF16()))
    return emitOpError() << "takes bf16 or f16 operands of one type, not " << aElt << " and " << bElt;
  if (!(acc.getElementType().isF32() || acc.getElementType().isF16()))
    return emitOpError() << "accumulates in f32 or f16, not " << acc.getElementType();
  if (m % 64)
    return emitOpError() << "needs M to be a multiple of 64 (one warpgroup per 64 rows), not " << m;
  if (n % 8 || n > 256)
    return emitOpError() << "needs N to be a multiple of 8 up to 256, not " << n;
  if (k % 16)
    return emitOpError() << "needs K to be a multiple of 16 for 16-bit operands, not " << k;
  return success();
}
