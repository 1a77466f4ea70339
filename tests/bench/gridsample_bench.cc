// Google Benchmark of the public GridSample on every workload of workloads.h, on one thread and
// on all hardware threads. Each benchmark is named gridsample/ID/num_threads:T and reports wall
// time in milliseconds plus two counters: `ms` (the same time, as a counter for tools that read
// counters only) and `elements/s` (output elements per second). With --benchmark_repetitions,
// a "min" aggregate joins the usual mean/median/stddev/cv. The context printed first (and
// written into --benchmark_out JSON) names the CPU, the Highway target the kernels dispatch
// to, the thread counts and the build flags.
//
// scripts/bench.sh runs this next to onnxruntime and prints the comparison table.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gridsample/gridsample.h"
#include "hwy/targets.h"
#include "rows.h"
#include "sampler.h"
#include "thread_pool.h"
#include "workloads.h"

#ifndef GRIDSAMPLE_BENCH_COMPILER
#define GRIDSAMPLE_BENCH_COMPILER "unknown"
#endif
#ifndef GRIDSAMPLE_BENCH_BUILD_TYPE
#define GRIDSAMPLE_BENCH_BUILD_TYPE "unknown"
#endif
#ifndef GRIDSAMPLE_BENCH_FLAGS
#define GRIDSAMPLE_BENCH_FLAGS "unknown"
#endif

namespace gridsample {
namespace bench {
namespace {

// The "model name" line of /proc/cpuinfo, where there is one.
std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) {
        const size_t start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? "" : line.substr(start);
      }
    }
  }
  return "unknown";
}

// Every target Highway compiled that this CPU runs, best first.
std::string AvailableTargets() {
  std::string names;
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    names += (names.empty() ? "" : " ") + std::string(hwy::TargetName(target));
  }
  return names;
}

// A workload's tensors, made on first use and kept for the later runs of the same workload.
Tensors& TensorsOf(const Workload& w) {
  static std::map<std::string, std::unique_ptr<Tensors>> cache;
  std::unique_ptr<Tensors>& slot = cache[w.id];
  if (!slot) slot = std::make_unique<Tensors>(w);
  return *slot;
}

void RunWorkload(benchmark::State& state, const Workload* w, int num_threads) {
  Tensors& t = TensorsOf(*w);
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    const Status status = t.Run(*w, num_threads);
    if (!status.ok()) {
      state.SkipWithError(status.message().c_str());
      break;
    }
    benchmark::DoNotOptimize(t.y.data());
    benchmark::ClobberMemory();
  }
  const std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  const double elements = static_cast<double>(ElementCount(t.y_shape));
  state.counters["elements/s"] =
      benchmark::Counter(elements, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["ms"] = benchmark::Counter(elapsed.count(), benchmark::Counter::kAvgIterations);
  state.counters["num_threads"] = num_threads;
  state.SetLabel(Description(*w));
}

void RegisterAll() {
  const int all = static_cast<int>(HardwareThreads());
  std::vector<int> thread_counts = {1};
  if (all > 1) thread_counts.push_back(all);
  for (const Workload& w : Workloads()) {
    for (int threads : thread_counts) {
      const std::string name =
          std::string("gridsample/") + w.id + "/num_threads:" + std::to_string(threads);
      benchmark::RegisterBenchmark(name.c_str(), RunWorkload, &w, threads)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime()
          ->MinWarmUpTime(0.05)
          ->ComputeStatistics("min", [](const std::vector<double>& v) {
            return *std::min_element(v.begin(), v.end());
          });
    }
  }
}

}  // namespace
}  // namespace bench
}  // namespace gridsample

int main(int argc, char** argv) {
  using gridsample::bench::AvailableTargets;
  using gridsample::bench::CpuModel;
  // --gridsample_path=NAME (sampler.h's SamplerPathName) makes every workload take that path
  // wherever it can, whatever the tuning thresholds say: for measuring the path-choice rule.
  const std::string path_flag = "--gridsample_path=";
  std::string forced = "chosen";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(path_flag, 0) != 0) continue;
    forced = arg.substr(path_flag.size());
    bool known = false;
    for (int k = 0; const char* name = gridsample::SamplerPathName(gridsample::SamplerPath(k));
         ++k) {
      if (forced == name) {
        gridsample::ForceSamplerPathForTest(gridsample::SamplerPath(k));
        known = true;
      }
    }
    if (!known) {
      std::fprintf(stderr, "gridsample_bench: unknown path %s\n", forced.c_str());
      return 1;
    }
    std::copy(argv + i + 1, argv + argc, argv + i);
    --argc;
    --i;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("cpu_model", CpuModel());
  benchmark::AddCustomContext("highway_target", gridsample::KernelTargetName());
  benchmark::AddCustomContext("highway_targets_available", AvailableTargets());
  benchmark::AddCustomContext("hardware_threads", std::to_string(gridsample::HardwareThreads()));
  benchmark::AddCustomContext("thread_counts",
                              gridsample::HardwareThreads() > 1
                                  ? "1, " + std::to_string(gridsample::HardwareThreads())
                                  : "1");
  benchmark::AddCustomContext("sampler_path", forced);
  benchmark::AddCustomContext("compiler", GRIDSAMPLE_BENCH_COMPILER);
  benchmark::AddCustomContext("build_type", GRIDSAMPLE_BENCH_BUILD_TYPE);
  benchmark::AddCustomContext("build_flags", GRIDSAMPLE_BENCH_FLAGS);
  gridsample::bench::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
