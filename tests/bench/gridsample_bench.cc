// Google Benchmark of the public GridSample on every workload of workloads.h, on one thread and
// on all hardware threads. Each benchmark is named gridsample/ID/num_threads:T and reports wall
// time in milliseconds plus two counters: `ms` (the same time, as a counter for tools that read
// counters only) and `elements/s` (output elements per second). With --benchmark_repetitions,
// a "min" aggregate joins the usual mean/median/stddev/cv. The context printed first (and
// written into --benchmark_out JSON) names the CPU, the Highway target the kernels dispatch
// to, the thread counts and the build flags.
//
// memory/copy/num_threads:T copies 64 MiB with memcpy split over T threads (bytes_per_second
// counts what is read and written): the memory bandwidth a call's traffic is held against.
//
// Flags of its own, before Google Benchmark's:
//   --gridsample_target=NAME  runs the kernels of Highway's target NAME (one this CPU runs and
//                             the build compiled, e.g. AVX2 on an AVX-512 machine), not the best
//   --gridsample_targets      prints those targets, best first, one per line, and exits
//   --gridsample_path=NAME    (sampler.h's SamplerPathName) makes every workload take that path
//                             wherever it can, whatever the tuning thresholds say: for
//                             measuring the path-choice rule
//
// scripts/bench.sh runs this next to the peers and prints the comparison tables.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
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

// The "model name" line of /proc/cpuinfo, where there is one, with the x86 "cpu family" and
// "model" numbers after it: a virtual machine may name its CPU no more than "AMD EPYC", where
// the numbers tell a Zen 3 from a Zen 5 (their kernels' choices differ: docs/benchmarks.md).
std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, name, family, model;
  const auto value = [&line](const char* key, std::string* out) {
    const size_t colon = line.find(':');
    if (line.rfind(key, 0) != 0 || colon == std::string::npos) return;
    // The key itself, not a longer one that starts with it ("model name" against "model").
    if (line.find_first_not_of(" \t", std::strlen(key)) != colon) return;
    const size_t start = line.find_first_not_of(" \t", colon + 1);
    if (start != std::string::npos) *out = line.substr(start);
  };
  while (std::getline(cpuinfo, line) && !line.empty()) {  // the first processor's lines
    value("model name", &name);
    value("cpu family", &family);
    value("model", &model);
  }
  if (name.empty()) return "unknown";
  if (family.empty() || model.empty()) return name;
  return name + " (family " + family + ", model " + model + ")";
}

// Every target Highway compiled that this CPU runs, best first.
std::string AvailableTargets() {
  std::string names;
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    names += (names.empty() ? "" : " ") + std::string(hwy::TargetName(target));
  }
  return names;
}

// Makes the kernels dispatch to the target named `name` (one of AvailableTargets()); false if
// there is none of that name, or the kernels do not report it once chosen.
bool ChooseTarget(const std::string& name) {
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    if (name != hwy::TargetName(target)) continue;
    hwy::SetSupportedTargetsForTest(target);
    return name == KernelTargetName();
  }
  return false;
}

// Splits a copy of 64 MiB (large enough that memcpy streams it past the caches) into one
// contiguous part per thread.
void CopyMemory(benchmark::State& state, int num_threads) {
  constexpr size_t kBytes = size_t{64} << 20;
  static std::vector<unsigned char> from(kBytes, 1), to(kBytes, 0);
  const size_t threads = ThreadsForCall(num_threads);
  const size_t part = kBytes / threads;
  for (auto _ : state) {
    ParallelFor(threads, threads, [&](size_t item, size_t) {
      std::memcpy(to.data() + item * part, from.data() + item * part, part);
    });
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * int64_t{2} * kBytes);
  state.counters["num_threads"] = static_cast<double>(threads);
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
  for (int threads : thread_counts) {
    const std::string name = "memory/copy/num_threads:" + std::to_string(threads);
    benchmark::RegisterBenchmark(name.c_str(), CopyMemory, threads)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MinWarmUpTime(0.05)
        ->ComputeStatistics("min", [](const std::vector<double>& v) {
          return *std::min_element(v.begin(), v.end());
        });
  }
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

// Forces every call onto the path named `name`; false if there is none of that name.
bool ForcePath(const std::string& name) {
  for (int k = 0; const char* path = SamplerPathName(SamplerPath(k)); ++k) {
    if (name == path) {
      ForceSamplerPathForTest(SamplerPath(k));
      return true;
    }
  }
  return false;
}

}  // namespace
}  // namespace bench
}  // namespace gridsample

int main(int argc, char** argv) {
  using gridsample::bench::AvailableTargets;
  using gridsample::bench::CpuModel;
  std::string forced = "chosen";
  const std::string available = AvailableTargets();  // before a target is chosen
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t equals = arg.find('=');
    const std::string flag = arg.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : arg.substr(equals + 1);
    if (flag == "--gridsample_targets") {
      for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
        std::printf("%s\n", hwy::TargetName(target));
      }
      return 0;
    }
    if (flag == "--gridsample_target" && !gridsample::bench::ChooseTarget(value)) {
      std::fprintf(stderr, "gridsample_bench: no target %s here (this CPU runs: %s)\n",
                   value.c_str(), available.c_str());
      return 1;
    }
    if (flag == "--gridsample_path") {
      forced = value;
      if (!gridsample::bench::ForcePath(value)) {
        std::fprintf(stderr, "gridsample_bench: unknown path %s\n", value.c_str());
        return 1;
      }
    }
    if (flag != "--gridsample_target" && flag != "--gridsample_path") continue;
    std::copy(argv + i + 1, argv + argc, argv + i);
    --argc;
    --i;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("cpu_model", CpuModel());
  benchmark::AddCustomContext("highway_target", gridsample::KernelTargetName());
  benchmark::AddCustomContext("highway_targets_available", available);
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
