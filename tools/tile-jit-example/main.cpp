// An application that embeds the JIT: it compiles a kernel from a string at run time,
// launches it and checks the result — through jit::Backend, so the same code runs on the GPU or
// on the CPU through the interpreter (TILE_INTERPRET=1, --backend interpreter, or no GPU), and
// says which. Run it twice on a GPU: the second process loads the kernel from the disk cache
// ($TILE_CACHE_DIR, default ~/.cache/tile-cc) without compiling.
//
//   build/bin/tile-jit-example [--backend auto|gpu|interpreter]   # exit 0 when the result is right

#include "runtime/jit/Backend.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

static const char *kSource = R"py(
import cuda.tile as ct

@ct.kernel
def saxpy(x, y, out, a, BLOCK: ct.Constant[int]):
    i = ct.bid(0)
    tx = ct.load(x, (i,), (BLOCK,), padding_mode=ct.PaddingMode.ZERO)
    ty = ct.load(y, (i,), (BLOCK,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, (i,), a * tx + ty)
)py";

int main(int argc, char **argv) {
  using namespace tile;
  jit::BackendOptions options;
  for (int i = 1; i < argc; ++i) {
    const char *choice = std::strcmp(argv[i], "--backend") == 0 && i + 1 < argc ? argv[++i] : "";
    if (!std::strcmp(choice, "auto"))
      options.choice = jit::BackendOptions::Choice::Auto;
    else if (!std::strcmp(choice, "gpu"))
      options.choice = jit::BackendOptions::Choice::Gpu;
    else if (!std::strcmp(choice, "interpreter"))
      options.choice = jit::BackendOptions::Choice::Interpreter;
    else {
      std::fprintf(stderr, "usage: tile-jit-example [--backend auto|gpu|interpreter]\n");
      return 2;
    }
  }
  try {
    jit::Backend backend(options);
    std::printf("tile-jit-example: running on %s\n", backend.description().c_str());

    jit::KernelRequest request;
    request.source = kSource;
    request.fileName = "saxpy.py";
    request.kernel = "saxpy";
    request.constants["BLOCK"] = int64_t(1024);
    request.args = {{"x", {"float32", 1}}, {"y", {"float32", 1}}, {"out", {"float32", 1}}, {"a", {"float32", 0}}};

    auto start = std::chrono::steady_clock::now();
    jit::KernelHandle kernel = backend.compile(request);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (jit::Jit *jit = backend.jit())
      std::printf("saxpy for %s ready in %.1f ms (%s)\n", jit->arch().c_str(), ms,
                  jit->stats().diskHits ? "from the disk cache" : "compiled");
    else
      std::printf("saxpy ready in %.1f ms (tile IR for the interpreter)\n", ms);

    const int64_t n = (1 << 20) + 100; // a ragged last block
    std::vector<float> x(n), y(n);
    for (int64_t i = 0; i < n; ++i) {
      x[i] = float(i % 1000);
      y[i] = 1.0f;
    }
    jit::Buffer dx = backend.upload(x), dy = backend.upload(y), out = backend.allocate(n * sizeof(float));
    start = std::chrono::steady_clock::now();
    backend.launch(kernel, rt::Grid((n + 1023) / 1024),
                   {dx.array(rt::DType::Float32, {n}), dy.array(rt::DType::Float32, {n}),
                    out.array(rt::DType::Float32, {n}), 2.0f});
    backend.synchronize();
    ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::vector<float> result = out.toHost<float>();
    for (int64_t i = 0; i < n; ++i)
      if (result[i] != 2.0f * x[i] + 1.0f) {
        std::printf("wrong result at %lld: %f\n", (long long)i, result[i]);
        return 1;
      }
    std::printf("saxpy on %lld elements (%s, %.1f ms): correct\n", (long long)n, jit::backendName(backend.kind()), ms);
    return 0;
  } catch (const rt::Error &e) {
    std::printf("tile-jit-example: %s\n", e.what());
    return 1;
  }
}
