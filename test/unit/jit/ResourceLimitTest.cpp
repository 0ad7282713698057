// Kernels that do not fit the target fail to compile with the compiler's located error, which
// is what the autotuner shows when it skips a configuration ("does not compile: ..."): a
// 256x256 f32 accumulator at 512 threads (registers) and a 256x512 bf16 operand buffer beside
// the 64x512 Q tile (shared memory), both without ptxas.
#include "compiler/driver/Compile.h"

#include <catch2/catch.hpp>

using namespace tile;

namespace {

// The diagnostics of compiling `source`'s kernel `kernel` to PTX, which must fail.
std::string compileError(const std::string &source, const std::string &kernel,
                         const std::map<std::string, std::string> &args) {
  frontend::Specialization spec;
  spec.kernel = kernel;
  for (auto &[name, text] : args) {
    std::string parsed, error;
    frontend::ArgType type;
    REQUIRE(frontend::parseArgSpec(name + "=" + text, parsed, type, error));
    spec.args[parsed] = type;
  }
  driver::CompileOptions options;
  options.ptxOnly = true;
  driver::CompiledKernel out;
  std::string diagnostics;
  CHECK_FALSE(driver::compileKernel(source, "limits.py", spec, options, out, diagnostics));
  return diagnostics;
}

} // namespace

TEST_CASE("a kernel over the register or shared-memory limits fails with a located error", "[jit][limits]") {
  const std::string source = R"(import cuda.tile as ct


@ct.kernel
def mm(a, b, c, n: int):
    acc = ct.zeros((256, 256), dtype=ct.float32)
    for k in range(n):
        acc = ct.mma(ct.load(a, (ct.bid(0), k), (256, 64)), ct.load(b, (k, ct.bid(1)), (64, 256)), acc)
    ct.store(c, (ct.bid(0), ct.bid(1)), acc)


@ct.kernel
def twice(q, kv, o, n: int):
    qt = ct.load(q, (ct.bid(0), 0), (64, 512))
    acc = ct.zeros((64, 512), dtype=ct.float32)
    for j in range(n):
        k = ct.load(kv, (j, 0), (256, 512))
        s = ct.mma(qt, ct.transpose(k), ct.zeros((64, 256), dtype=ct.float32))
        acc = ct.mma(s.astype(ct.bfloat16), k, acc)
    ct.store(o, (ct.bid(0), 0), acc)
)";
  std::string regs = compileError(
      source, "mm", {{"a", "bf16:2:aligned"}, {"b", "bf16:2:aligned"}, {"c", "f32:2:aligned"}, {"n", "i32:0"}});
  CHECK_THAT(regs, Catch::Contains("limits.py:8:15: error: accumulator tile 256x256xf32 does not fit in registers"));
  CHECK_THAT(regs, Catch::Contains("num_threads=256"));
  std::string smem = compileError(
      source, "twice", {{"q", "bf16:2:aligned"}, {"kv", "bf16:2:aligned"}, {"o", "f32:2:aligned"}, {"n", "i32:0"}});
  CHECK_THAT(smem, Catch::Contains("error: shared memory: the buffers need"));
  CHECK_THAT(smem, Catch::Contains("256x512xbf16 (262144 bytes, line 18)"));
}
