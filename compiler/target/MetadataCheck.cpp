#include "compiler/target/MetadataCheck.h"

#include "runtime/KernelMetadata.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FormatVariadic.h"

namespace tile::target {

namespace {

std::string swizzleName(int64_t bytes) { return bytes ? std::to_string(bytes) + "B" : "none"; }

std::string boxText(llvm::ArrayRef<int64_t> box) {
  std::string text = "[";
  for (size_t i = 0; i < box.size(); ++i)
    text += (i ? ", " : "") + std::to_string(box[i]);
  return text + "]";
}

std::string paramsMismatch(mlir::ArrayAttr params, const rt::KernelMetadata &md, unsigned &llvmParams) {
  if (!params || params.size() != md.params.size())
    return llvm::formatv("params has {0} entries for the kernel's {1}", md.params.size(), params ? params.size() : 0);
  llvmParams = 0;
  for (auto [i, attr] : llvm::enumerate(params)) {
    auto dict = llvm::cast<mlir::DictionaryAttr>(attr);
    const rt::ParamInfo &p = md.params[i];
    std::string field = llvm::formatv("params[{0}]", i);
    if (p.name != dict.getAs<mlir::StringAttr>("name").getValue())
      return field + ".name is '" + p.name + "' where the kernel's parameter is '" +
             dict.getAs<mlir::StringAttr>("name").str() + "'";
    bool array = dict.getAs<mlir::StringAttr>("kind").getValue() == "array";
    if (p.isArray() != array)
      return field + ".kind is " + (p.isArray() ? "array" : "scalar") + " where the code takes " +
             (array ? "an array" : "a scalar");
    if (rt::dtypeName(p.dtype) != dict.getAs<mlir::StringAttr>("dtype").getValue())
      return field + ".dtype is " + rt::dtypeName(p.dtype) + " where the code reads " +
             dict.getAs<mlir::StringAttr>("dtype").str();
    int64_t rank = array ? dict.getAs<mlir::IntegerAttr>("rank").getInt() : 0;
    if (array && p.rank != rank)
      return field + llvm::formatv(".rank is {0} where the code indexes {1} dimensions", p.rank, rank).str();
    // An array expands to its pointer, shape and strides; a scalar is one parameter.
    llvmParams += array ? 1 + 2 * unsigned(rank) : 1;
  }
  return "";
}

std::string tmaMismatch(mlir::ArrayAttr maps, const rt::KernelMetadata &md) {
  size_t count = maps ? maps.size() : 0;
  if (count != md.tma.size())
    return llvm::formatv("tma has {0} descriptors where the code issues copies through {1}", md.tma.size(), count);
  for (size_t i = 0; i < count; ++i) {
    auto map = llvm::cast<mlir::DictionaryAttr>(maps[i]);
    const rt::TmaInfo &t = md.tma[i];
    std::string field = llvm::formatv("tma[{0}]", i);
    llvm::StringRef param = map.getAs<mlir::StringAttr>("param").getValue();
    if (t.param != param || t.paramIndex < 0 || md.params[t.paramIndex].name != param)
      return field + ".param is '" + t.param + "' where the code copies '" + param.str() + "'";
    llvm::ArrayRef<int64_t> box = map.getAs<mlir::DenseI64ArrayAttr>("box").asArrayRef();
    if (llvm::ArrayRef<int64_t>(t.box) != box)
      return field + ".box is " + boxText(t.box) + " where the code copies " + boxText(box);
    std::string swizzle = swizzleName(map.getAs<mlir::IntegerAttr>("swizzle").getInt());
    if (rt::tmaSwizzleName(t.swizzle) != swizzle)
      return field + ".swizzle is " + rt::tmaSwizzleName(t.swizzle) + " where the code assumes " + swizzle;
    bool nan = map.getAs<mlir::BoolAttr>("nan_fill").getValue();
    if ((t.oobFill == rt::TmaOobFill::NaN) != nan)
      return field + ".oob_fill is " + (nan ? "zero" : "nan") + " where the code assumes " + (nan ? "nan" : "zero");
    if (llvm::any_of(t.elementStrides, [](int64_t s) { return s != 1; }))
      return field + ".element_strides are not all 1, which the code's copies assume";
  }
  return "";
}

} // namespace

std::string metadataMismatch(mlir::LLVM::LLVMFuncOp fn, const std::string &json) {
  rt::KernelMetadata md;
  std::string error;
  if (!rt::parseKernelMetadata(json, "the metadata written for " + fn.getSymName().str(), md, error))
    return error;
  if (md.kernel != fn.getSymName())
    return "kernel is '" + md.kernel + "' where the code's symbol is '" + fn.getSymName().str() + "'";
  auto threads = fn->getAttrOfType<mlir::IntegerAttr>("tile.num_threads");
  if (!threads || md.threadsPerBlock != threads.getInt())
    return llvm::formatv("threads_per_block is {0} where the code is built for {1}", md.threadsPerBlock,
                         threads ? threads.getInt() : 0);
  auto shared = fn->getAttrOfType<mlir::IntegerAttr>("tile.shared_bytes");
  if (!shared || md.dynamicSharedMemory != shared.getInt())
    return llvm::formatv("dynamic_shared_memory is {0} where the code uses {1} bytes", md.dynamicSharedMemory,
                         shared ? shared.getInt() : 0);
  unsigned llvmParams = 0;
  std::string why = paramsMismatch(fn->getAttrOfType<mlir::ArrayAttr>("tile.params"), md, llvmParams);
  if (why.empty())
    why = tmaMismatch(fn->getAttrOfType<mlir::ArrayAttr>("tile.tma"), md);
  if (!why.empty())
    return why;
  // The descriptors follow the expanded parameters, one byval parameter each.
  if (fn.getNumArguments() != llvmParams + md.tma.size())
    return llvm::formatv("the metadata passes {0} parameters ({1} descriptors) to a function of {2}",
                         llvmParams + md.tma.size(), md.tma.size(), fn.getNumArguments());
  return "";
}

} // namespace tile::target
