// The C functions of include/tile/c/tilecc.h: each turns its arguments into the C++ API's,
// and every exception into a status and the thread's last error.
#include "tile/c/tilecc.h"

#include "runtime/Error.h"
#include "runtime/capi/Context.h"
#include "runtime/capi/Ssd.h"
#include "runtime/jit/KernelDecl.h"
#include "tile/Version.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

struct tilecc_context {
  tile::capi::Context context;
};
struct tilecc_program {
  tile::capi::Program program;
};

namespace {

thread_local std::string lastError;

tilecc_status fail(tilecc_status status, const std::string &message) {
  lastError = message;
  return status;
}

tilecc_status statusOf(const tile::rt::Error &error) {
  using Kind = tile::rt::Error::Kind;
  switch (error.kind()) {
  case Kind::NoDriver:
    return TILECC_ERROR_NO_DRIVER;
  case Kind::NoDevice:
    return TILECC_ERROR_NO_DEVICE;
  case Kind::Driver:
    return TILECC_ERROR_DRIVER;
  case Kind::InvalidMetadata:
    return TILECC_ERROR_INVALID_METADATA;
  case Kind::InvalidArgument:
    return TILECC_ERROR_INVALID_ARGUMENT;
  case Kind::Io:
    return TILECC_ERROR_IO;
  }
  return TILECC_ERROR_INTERNAL;
}

// Runs `body`, turning what it throws into a status and a message.
template <typename Body> tilecc_status guarded(Body &&body) {
  try {
    body();
    return TILECC_OK;
  } catch (const tile::rt::Error &error) {
    return fail(statusOf(error), error.what());
  } catch (const std::bad_alloc &) {
    return fail(TILECC_ERROR_INTERNAL, "out of memory");
  } catch (const std::exception &error) {
    return fail(TILECC_ERROR_INTERNAL, std::string("internal error: ") + error.what());
  } catch (...) {
    return fail(TILECC_ERROR_INTERNAL, "internal error: an unknown exception");
  }
}

void require(bool condition, const char *message) {
  if (!condition)
    throw tile::rt::Error(tile::rt::Error::Kind::InvalidArgument, message);
}

nlohmann::json constantJson(const tile::frontend::ConstantValue &value) {
  return std::visit([](auto v) { return nlohmann::json(v); }, value);
}

// A copy the caller frees with tilecc_free.
char *mallocCopy(const std::string &text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (!copy)
    throw std::bad_alloc();
  std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

} // namespace

extern "C" {

int tilecc_api_version(void) { return TILECC_C_API_VERSION; }

const char *tilecc_version(void) { return TILE_CC_VERSION_STRING; }

const char *tilecc_last_error(void) { return lastError.c_str(); }

tilecc_status tilecc_context_create(tilecc_backend backend, int device, tilecc_context **out) {
  return guarded([&] {
    require(out != nullptr, "tilecc_context_create: `out` is null");
    *out = nullptr;
    using Choice = tile::jit::BackendOptions::Choice;
    Choice choice = Choice::Auto;
    if (backend == TILECC_BACKEND_GPU)
      choice = Choice::Gpu;
    else if (backend == TILECC_BACKEND_INTERPRETER)
      choice = Choice::Interpreter;
    else
      require(backend == TILECC_BACKEND_AUTO, "tilecc_context_create: unknown backend");
    require(device >= 0, "tilecc_context_create: the device ordinal is negative");
    *out = new tilecc_context{tile::capi::Context(choice, device)};
  });
}

void tilecc_context_destroy(tilecc_context *context) { delete context; }

int tilecc_context_is_gpu(const tilecc_context *context) {
  return context && const_cast<tilecc_context *>(context)->context.backend().onGpu() ? 1 : 0;
}

const char *tilecc_context_description(const tilecc_context *context) {
  return context ? context->context.description().c_str() : "";
}

tilecc_status tilecc_context_synchronize(tilecc_context *context) {
  return guarded([&] {
    require(context != nullptr, "tilecc_context_synchronize: the context is null");
    context->context.backend().synchronize();
  });
}

tilecc_status tilecc_program_create(const char *source, const char *file_name, tilecc_program **out) {
  static std::atomic<std::uint64_t> nextId{1};
  return guarded([&] {
    require(out != nullptr, "tilecc_program_create: `out` is null");
    *out = nullptr;
    require(source != nullptr, "tilecc_program_create: the source is null");
    const std::size_t size = std::strlen(source);
    if (size > tile::jit::kMaxSourceBytes)
      throw tile::rt::Error(tile::rt::Error::Kind::InvalidArgument,
                            "the kernel source is larger than 64 MiB (" + std::to_string(size) + " bytes)");
    *out = new tilecc_program{
        tile::capi::Program{source, file_name && *file_name ? file_name : "<source>", nextId.fetch_add(1)}};
  });
}

void tilecc_program_destroy(tilecc_program *program) { delete program; }

tilecc_status tilecc_program_inspect(tilecc_program *program, const char *kernel, char **json_out) {
  return guarded([&] {
    require(json_out != nullptr, "tilecc_program_inspect: `json_out` is null");
    *json_out = nullptr;
    require(program != nullptr, "tilecc_program_inspect: the program is null");
    require(kernel != nullptr, "tilecc_program_inspect: the kernel name is null");
    const tile::jit::KernelDecl decl =
        tile::jit::kernelDecl(program->program.source, program->program.fileName, kernel);
    nlohmann::json params = nlohmann::json::array(), configs = nlohmann::json::array();
    for (const tile::frontend::ParamDecl &p : decl.params)
      params.push_back({{"name", p.name}, {"constant", p.constant}, {"has_default", p.hasDefault}});
    for (const auto &config : decl.configs) {
      nlohmann::json values = nlohmann::json::object();
      for (const auto &[name, value] : config)
        values[name] = constantJson(value);
      configs.push_back(values);
    }
    nlohmann::json doc = {
        {"name", kernel}, {"params", params}, {"autotune_configs", configs}, {"autotune_key", decl.key}};
    *json_out = mallocCopy(doc.dump());
  });
}

void tilecc_free(void *memory) { std::free(memory); }

tilecc_status tilecc_launch(tilecc_context *context, tilecc_program *program, const char *kernel,
                            const uint32_t (*grids)[3], size_t num_grids, const tilecc_arg *args, size_t num_args,
                            void *stream) {
  return guarded([&] {
    require(context != nullptr, "tilecc_launch: the context is null");
    require(program != nullptr, "tilecc_launch: the program is null");
    require(kernel != nullptr, "tilecc_launch: the kernel name is null");
    require(grids != nullptr && num_grids > 0, "tilecc_launch: no grid was given");
    std::vector<tile::capi::GridDims> dims;
    for (size_t i = 0; i < num_grids; ++i)
      dims.push_back({grids[i][0], grids[i][1], grids[i][2]});
    context->context.launch(program->program, kernel, dims, args, num_args, stream);
  });
}

tilecc_status tilecc_ssd_plan(const DLTensor *const *inputs, const tilecc_ssd_options *options, char **json_out) {
  return guarded([&] {
    require(json_out != nullptr, "tilecc_ssd_plan: `json_out` is null");
    *json_out = nullptr;
    *json_out = mallocCopy(tile::capi::ssdPlanJson(inputs, options));
  });
}

tilecc_status tilecc_ssd_forward(tilecc_context *context, const DLTensor *const *inputs, const DLTensor *const *outputs,
                                 const tilecc_ssd_options *options, void *stream) {
  return guarded([&] {
    require(context != nullptr, "tilecc_ssd_forward: the context is null");
    tile::capi::ssdForward(context->context, inputs, outputs, options, stream);
  });
}

tilecc_status tilecc_ssd_backward(tilecc_context *context, const DLTensor *const *inputs, const DLTensor *dy,
                                  const DLTensor *dfinal_states, const DLTensor *const *gradients,
                                  const tilecc_ssd_options *options, void *stream) {
  return guarded([&] {
    require(context != nullptr, "tilecc_ssd_backward: the context is null");
    tile::capi::ssdBackward(context->context, inputs, dy, dfinal_states, gradients, options, stream);
  });
}

tilecc_status tilecc_ssd_varlen_states(tilecc_context *context, const DLTensor *const *inputs,
                                       const DLTensor *const *outputs, const DLTensor *cu_seqlens,
                                       const DLTensor *varlen_states, const tilecc_ssd_options *options, void *stream) {
  return guarded([&] {
    require(context != nullptr, "tilecc_ssd_varlen_states: the context is null");
    tile::capi::ssdVarlenStates(context->context, inputs, outputs, cu_seqlens, varlen_states, options, stream);
  });
}

} // extern "C"
