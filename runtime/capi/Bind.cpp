#include "runtime/capi/Bind.h"

#include "runtime/DLPack.h"
#include "runtime/Error.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace tile::capi {

namespace {

[[noreturn]] void invalid(const std::string &message) { throw rt::Error(rt::Error::Kind::InvalidArgument, message); }

const char *kindName(tilecc_arg_kind kind) {
  switch (kind) {
  case TILECC_ARG_TENSOR:
    return "a tensor";
  case TILECC_ARG_INT:
    return "an int";
  case TILECC_ARG_FLOAT:
    return "a float";
  case TILECC_ARG_BOOL:
    return "a bool";
  case TILECC_ARG_TENSOR_LIST:
    return "a list of tensors";
  }
  return "an argument of unknown kind";
}

bool fitsSigned(int64_t value, unsigned bits) {
  if (bits >= 64)
    return true;
  const int64_t limit = int64_t(1) << (bits - 1);
  return value >= -limit && value < limit;
}

rt::Scalar integerScalar(rt::DType dtype, int64_t value, const std::string &what) {
  const unsigned bits = rt::dtypeSize(dtype) * 8;
  const bool fits = rt::isUnsigned(dtype) ? value >= 0 && (bits >= 64 || uint64_t(value) < (uint64_t(1) << bits))
                                          : fitsSigned(value, bits);
  if (!fits)
    invalid(fmt::format("{}: {} does not fit {}", what, value, rt::dtypeName(dtype)));
  return rt::Scalar::fromBits(dtype, bits >= 64 ? uint64_t(value) : uint64_t(value) & ((uint64_t(1) << bits) - 1));
}

rt::Scalar floatScalar(rt::DType dtype, double value, const std::string &what) {
  switch (dtype) {
  case rt::DType::Float64:
    return rt::Scalar(value);
  case rt::DType::Float32:
    return rt::Scalar(float(value));
  case rt::DType::Float16:
    return rt::Scalar::float16(float(value));
  case rt::DType::BFloat16:
    return rt::Scalar::bfloat16(float(value));
  case rt::DType::TFloat32:
    return rt::Scalar::tfloat32(float(value));
  default:
    invalid(fmt::format("{}: a float cannot be passed as {}", what, rt::dtypeName(dtype)));
  }
}

rt::Scalar scalarFor(const tilecc_arg &arg, const std::string &what) {
  std::optional<rt::DType> dtype;
  if (arg.dtype && *arg.dtype) {
    dtype = rt::parseDType(arg.dtype);
    if (!dtype)
      invalid(fmt::format("{}: unknown dtype '{}' (one of {})", what, arg.dtype, rt::dtypeNameList()));
  }
  switch (arg.kind) {
  case TILECC_ARG_BOOL:
    if (dtype && *dtype != rt::DType::Bool)
      return integerScalar(*dtype, arg.int_value != 0, what);
    return rt::Scalar(arg.int_value != 0);
  case TILECC_ARG_INT:
    if (!dtype)
      dtype = fitsSigned(arg.int_value, 32) ? rt::DType::Int32 : rt::DType::Int64;
    if (rt::isFloat(*dtype))
      return floatScalar(*dtype, double(arg.int_value), what);
    if (*dtype == rt::DType::Bool)
      invalid(fmt::format("{}: an int cannot be passed as bool_", what));
    return integerScalar(*dtype, arg.int_value, what);
  case TILECC_ARG_FLOAT:
    return floatScalar(dtype.value_or(rt::DType::Float32), arg.float_value, what);
  case TILECC_ARG_TENSOR:
  case TILECC_ARG_TENSOR_LIST:
    break;
  }
  invalid(fmt::format("{}: {} is not a scalar", what, kindName(arg.kind)));
}

frontend::ConstantValue constantOf(const tilecc_arg &arg, const std::string &what) {
  switch (arg.kind) {
  case TILECC_ARG_INT:
    return arg.int_value;
  case TILECC_ARG_FLOAT:
    if (!std::isfinite(arg.float_value))
      invalid(fmt::format("{}: a ct.Constant must be finite, not {}", what, arg.float_value));
    return arg.float_value;
  case TILECC_ARG_BOOL:
    return arg.int_value != 0;
  case TILECC_ARG_TENSOR:
  case TILECC_ARG_TENSOR_LIST:
    break;
  }
  invalid(fmt::format("{} is a ct.Constant: pass an int, float or bool, not {}", what, kindName(arg.kind)));
}

// The array type of `tensor` (`what` names it in messages).
frontend::ArgType tensorType(const DLTensor *tensor, const std::string &what) {
  if (!tensor)
    invalid(what + ": the tensor is null");
  std::optional<rt::DType> dtype = rt::dtypeFromDLPack(tensor->dtype);
  if (!dtype)
    invalid(fmt::format("{}: tensors of {} are not supported (cuTile dtypes: {})", what,
                        rt::describeDLPackType(tensor->dtype), rt::dtypeNameList()));
  if (tensor->ndim < 1)
    invalid(what + ": a 0-dimensional tensor is not an array; pass the number itself");
  return {rt::dtypeName(*dtype), tensor->ndim, rt::dlpackView(*tensor).isAligned()};
}

// The list type of the `count` tensors at `tensors`: one dtype and rank, aligned when all are.
frontend::ArgType tensorListType(const DLTensor *const *tensors, int64_t count, const std::string &what) {
  if (count < 0 || count > frontend::kMaxListLength)
    invalid(fmt::format("{}: a list of {} tensors (at most {})", what, count, frontend::kMaxListLength));
  if (count && !tensors)
    invalid(what + ": the list of tensors is null");
  frontend::ArgType list{"float32", 1, true, count}; // (an empty list declares no parameter)
  for (int64_t i = 0; i < count; ++i) {
    frontend::ArgType t = tensorType(tensors[i], fmt::format("{}, element {}", what, i));
    if (i == 0) {
      list.dtype = t.dtype;
      list.rank = t.rank;
    } else if (t.dtype != list.dtype || t.rank != list.rank) {
      invalid(fmt::format("{}: element {} is {}:{} but element 0 is {}:{} (the arrays of a list share a dtype and "
                          "rank)",
                          what, i, t.dtype, t.rank, list.dtype, list.rank));
    }
    list.aligned &= t.aligned;
  }
  list.aligned &= count > 0;
  return list;
}

std::string signature(const std::string &kernel, const jit::KernelDecl &decl) {
  std::string names;
  for (const frontend::ParamDecl &p : decl.params)
    names += (names.empty() ? "" : ", ") + p.name;
  return kernel + "(" + names + ")";
}

} // namespace

rt::Scalar scalarOf(const tilecc_arg &arg) { return scalarFor(arg, "scalar"); }

BoundLaunch bindArgs(const std::string &source, const std::string &fileName, const std::string &kernel,
                     const jit::KernelDecl &decl, const tilecc_arg *args, size_t numArgs) {
  if (numArgs > decl.params.size())
    invalid(fmt::format("{} takes {} arguments, {} were given", signature(kernel, decl), decl.params.size(), numArgs));
  if (numArgs && !args)
    invalid("the argument list is null");
  BoundLaunch bound;
  bound.request.source = source;
  bound.request.fileName = fileName;
  bound.request.kernel = kernel;
  bound.key = kernel;
  for (size_t i = 0; i < decl.params.size(); ++i) {
    const frontend::ParamDecl &p = decl.params[i];
    const std::string what = fmt::format("argument {} ('{}') of {}", i + 1, p.name, kernel);
    if (i >= numArgs) {
      // Left out: a constant with a default, or one that every autotune configuration sets.
      bool fromConfigs = !decl.configs.empty();
      for (const auto &config : decl.configs)
        fromConfigs &= config.count(p.name) > 0;
      if (p.constant && (p.hasDefault || fromConfigs))
        continue;
      invalid(fmt::format("{} takes {} arguments, {} were given: {} is missing", signature(kernel, decl),
                          decl.params.size(), numArgs, what));
    }
    const tilecc_arg &arg = args[i];
    if (p.constant) {
      frontend::ConstantValue value = constantOf(arg, what);
      if (auto *integer = std::get_if<int64_t>(&value))
        bound.integers[p.name] = *integer;
      bound.key += "\n" + p.name + "=" + frontend::formatConstant(value) + (arg.kind == TILECC_ARG_FLOAT ? "f" : "");
      bound.request.constants[p.name] = value;
      continue;
    }
    if (arg.kind == TILECC_ARG_TENSOR_LIST) {
      frontend::ArgType type = tensorListType(arg.tensors, arg.int_value, what);
      bound.request.args[p.name] = type;
      bound.key += "\n" + p.name + ":" + frontend::formatArgType(type);
      for (int64_t e = 0; e < arg.int_value; ++e)
        bound.args.emplace_back(arg.tensors[e]);
      continue;
    }
    if (arg.kind != TILECC_ARG_TENSOR) {
      rt::Scalar scalar = scalarFor(arg, what);
      if (!rt::isFloat(scalar.dtype()) && scalar.dtype() != rt::DType::Bool)
        bound.integers[p.name] = arg.int_value;
      frontend::ArgType type{rt::dtypeName(scalar.dtype()), 0};
      bound.request.args[p.name] = type;
      bound.key += "\n" + p.name + ":" + frontend::formatArgType(type);
      bound.args.emplace_back(scalar);
      continue;
    }
    frontend::ArgType type = tensorType(arg.tensor, what);
    bound.request.args[p.name] = type;
    bound.key += "\n" + p.name + ":" + frontend::formatArgType(type);
    bound.args.emplace_back(arg.tensor);
  }
  return bound;
}

} // namespace tile::capi
