// Kernels compile concurrently (Jit::compileAll runs driver::compileKernel on worker threads):
// the compiler keeps no shared mutable state, so eight threads compiling different kernels get
// exactly the PTX a sequential compile gives. And Backend::compileAll keeps the request order
// and names the failing request.
#include "compiler/driver/Compile.h"
#include "kernels/mamba2/SsdPlan.h"
#include "runtime/jit/Backend.h"

#include <catch2/catch.hpp>

#include <thread>

using namespace tile;

namespace {

std::vector<jit::KernelRequest> ssdRequests() {
  // The four launches of the Mamba-2 forward pass for a small bf16 problem.
  mamba2::SsdTensorTypes types;
  auto set = [&](mamba2::SsdTensor t, rt::DType dtype, mamba2::Shape shape) {
    types[unsigned(t)] = mamba2::SsdTensorType{dtype, std::move(shape)};
  };
  const rt::DType bf16 = rt::DType::BFloat16, f32 = rt::DType::Float32;
  set(mamba2::SsdTensor::X, bf16, {1, 200, 4, 64});
  set(mamba2::SsdTensor::Dt, f32, {1, 200, 4});
  set(mamba2::SsdTensor::A, f32, {4});
  set(mamba2::SsdTensor::B, bf16, {1, 200, 1, 64});
  set(mamba2::SsdTensor::C, bf16, {1, 200, 1, 64});
  mamba2::ForwardOptions options;
  std::vector<jit::KernelRequest> requests;
  for (const mamba2::SsdLaunch &l : mamba2::planSsdForward(types, options).launches)
    requests.push_back(l.request());
  return requests;
}

driver::CompiledKernel compile(const jit::KernelRequest &r) {
  frontend::Specialization spec;
  spec.kernel = r.kernel;
  spec.constants = r.constants;
  spec.args = r.args;
  spec.config = r.config;
  driver::CompileOptions options;
  options.ptxOnly = true; // no ptxas needed: the PTX is what the threads could disagree on
  driver::CompiledKernel out;
  std::string diagnostics;
  INFO(r.kernel << ": " << diagnostics);
  REQUIRE(driver::compileKernel(r.source, r.fileName, spec, options, out, diagnostics));
  return out;
}

} // namespace

TEST_CASE("kernels compiled on eight threads at once give the sequential PTX", "[jit][parallel]") {
  std::vector<jit::KernelRequest> requests = ssdRequests();
  REQUIRE(requests.size() == 4);
  std::vector<std::string> expected;
  for (const jit::KernelRequest &r : requests)
    expected.push_back(compile(r).ptx);
  // Two rounds of the four kernels, each on its own thread.
  std::vector<std::string> got(2 * requests.size());
  std::vector<std::string> failures(got.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i)
    threads.emplace_back([&, i] {
      const jit::KernelRequest &r = requests[i % requests.size()];
      frontend::Specialization spec;
      spec.kernel = r.kernel;
      spec.constants = r.constants;
      spec.args = r.args;
      driver::CompileOptions options;
      options.ptxOnly = true;
      driver::CompiledKernel out;
      if (driver::compileKernel(r.source, r.fileName, spec, options, out, failures[i]))
        got[i] = out.ptx;
    });
  for (std::thread &t : threads)
    t.join();
  for (size_t i = 0; i < got.size(); ++i) {
    INFO(requests[i % requests.size()].kernel << ": " << failures[i]);
    CHECK(!got[i].empty());
    CHECK(got[i] == expected[i % requests.size()]);
  }
}

TEST_CASE("Backend::compileAll keeps the order and names the request that fails", "[jit][parallel]") {
  jit::BackendOptions options;
  options.choice = jit::BackendOptions::Choice::Interpreter;
  jit::Backend backend(options);
  std::vector<jit::KernelRequest> requests = ssdRequests();
  std::vector<jit::KernelHandle> handles = backend.compileAll(requests);
  REQUIRE(handles.size() == requests.size());
  for (size_t i = 0; i < requests.size(); ++i)
    CHECK(handles[i].name() == requests[i].kernel);
  requests[2].constants["BP"] = int64_t(48); // not a power of two: fwd_pass_state cannot compile
  CHECK_THROWS_WITH(backend.compileAll(requests), Catch::Contains("fwd_pass_state"));
}
