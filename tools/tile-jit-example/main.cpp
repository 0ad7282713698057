// An application that embeds the JIT: it compiles a kernel from a string at run time,
// launches it and checks the result. Run it twice: the second process loads the kernel from
// the disk cache ($TILE_CACHE_DIR, default ~/.cache/tile-cc) without compiling.
//
//   build/bin/tile-jit-example          # exit 0 when the result is right, 77 without a GPU

#include "runtime/jit/Jit.h"

#include <chrono>
#include <cstdio>
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

int main() {
  using namespace tile;
  std::string why;
  if (!rt::Device::available(0, &why)) {
    std::printf("tile-jit-example: no GPU here (%s)\n", why.c_str());
    return 77;
  }
  try {
    rt::Device device(0);
    jit::Jit jit(device);

    jit::KernelRequest request;
    request.source = kSource;
    request.fileName = "saxpy.py";
    request.kernel = "saxpy";
    request.constants["BLOCK"] = int64_t(1024);
    request.args = {{"x", {"float32", 1}}, {"y", {"float32", 1}}, {"out", {"float32", 1}}, {"a", {"float32", 0}}};

    auto start = std::chrono::steady_clock::now();
    rt::Kernel kernel = jit.compile(request);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    jit::Jit::Stats stats = jit.stats();
    std::printf("saxpy for %s ready in %.1f ms (%s)\n", jit.arch().c_str(), ms,
                stats.diskHits ? "from the disk cache" : "compiled");

    const int n = 1 << 20;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
      x[i] = float(i % 1000);
      y[i] = 1.0f;
    }
    auto dx = rt::DeviceBuffer::fromHost(device, x), dy = rt::DeviceBuffer::fromHost(device, y);
    rt::DeviceBuffer out(device, n * sizeof(float));
    rt::launch(kernel, rt::Grid((n + 1023) / 1024),
               {dx.array(rt::DType::Float32, {n}), dy.array(rt::DType::Float32, {n}),
                out.array(rt::DType::Float32, {n}), 2.0f});
    device.synchronize();
    std::vector<float> result = out.toHost<float>();
    for (int i = 0; i < n; ++i)
      if (result[i] != 2.0f * x[i] + 1.0f) {
        std::printf("wrong result at %d: %f\n", i, result[i]);
        return 1;
      }
    std::printf("saxpy on %d elements: correct\n", n);
    return 0;
  } catch (const rt::Error &e) {
    std::printf("tile-jit-example: %s\n", e.what());
    return 1;
  }
}
