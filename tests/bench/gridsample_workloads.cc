// Exports the benchmark workloads (workloads.h) for runners in other languages, so that none of
// them restates the table.
//
//   gridsample_workloads --json          prints the table as JSON
//   gridsample_workloads --write DIR     also writes every workload's tensors as raw
//                                        little-endian files in DIR (ID.x.bin, ID.grid.bin, and
//                                        ID.y.bin, gridsample's own output to compare against),
//                                        plus DIR/workloads.json naming them
//   gridsample_workloads --run ID [T]    runs workload ID's call twice on T threads (default
//                                        1) and nothing else: for profilers, and for counting
//                                        the instructions of the calls, a figure that the
//                                        machine's load does not move (docs/benchmarks.md,
//                                        "Instruction counts")
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gridsample/gridsample.h"
#include "thread_pool.h"
#include "workloads.h"

namespace gridsample {
namespace bench {
namespace {

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string ShapeJson(const std::vector<int64_t>& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    out += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return out + "]";
}

std::string WorkloadJson(const Workload& w, bool with_files) {
  const std::vector<int64_t> y_shape = OutputShapeOf(w);
  const std::string id = w.id;
  char numbers[128];
  std::snprintf(numbers, sizeof(numbers), "\"scale\": %.17g, \"degrees\": %.17g, \"seed\": %llu",
                w.scale, w.degrees, static_cast<unsigned long long>(w.seed));
  std::string out =
      "    {\"id\": " + Quote(id) + ", \"description\": " + Quote(Description(w)) +
      ", \"source\": " + Quote(w.source) +
      ",\n     \"x\": {\"dtype\": " + Quote(DTypeName(w.x_dtype)) +
      ", \"shape\": " + ShapeJson(w.x_shape) + "},\n" +
      "     \"grid\": {\"dtype\": \"float32\", \"shape\": " + ShapeJson(w.grid_shape) +
      ", \"generator\": " + Quote(GridKindName(w.grid_kind)) + ", " + numbers + "},\n" +
      "     \"y\": {\"dtype\": " + Quote(DTypeName(w.x_dtype)) +
      ", \"shape\": " + ShapeJson(y_shape) +
      ", \"elements\": " + std::to_string(ElementCount(y_shape)) + "},\n" +
      "     \"mode\": " + Quote(ModeName(w.mode)) +
      ", \"padding_mode\": " + Quote(PaddingName(w.padding)) +
      ", \"align_corners\": " + (w.align_corners ? "1" : "0") +
      ", \"layout\": " + Quote(LayoutName(w.layout));
  if (with_files) {
    out += ",\n     \"files\": {\"x\": " + Quote(id + ".x.bin") +
           ", \"grid\": " + Quote(id + ".grid.bin") + ", \"y\": " + Quote(id + ".y.bin") + "}";
  }
  return out + "}";
}

std::string TableJson(bool with_files) {
  std::string out =
      "{\n  \"hardware_threads\": " + std::to_string(HardwareThreads()) + ",\n  \"workloads\": [\n";
  const auto& workloads = Workloads();
  for (size_t i = 0; i < workloads.size(); ++i) {
    out += WorkloadJson(workloads[i], with_files) + (i + 1 < workloads.size() ? ",\n" : "\n");
  }
  return out + "  ]\n}\n";
}

bool WriteFile(const std::string& path, const void* data, size_t size) {
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    std::fprintf(stderr, "gridsample_workloads: cannot write %s\n", path.c_str());
    return false;
  }
  const bool ok = std::fwrite(data, 1, size, file) == size;
  return std::fclose(file) == 0 && ok;
}

int WriteData(const std::string& dir) {
  for (const Workload& w : Workloads()) {
    Tensors t(w);
    const Status status = t.Run(w, 0);
    if (!status.ok()) {
      std::fprintf(stderr, "gridsample_workloads: %s: %s\n", w.id, status.message().c_str());
      return 1;
    }
    const std::string base = dir + "/" + w.id;
    if (!WriteFile(base + ".x.bin", t.x.data(), t.x.size()) ||
        !WriteFile(base + ".grid.bin", t.grid.data(), t.grid.size() * sizeof(float)) ||
        !WriteFile(base + ".y.bin", t.y.data(), t.y.size())) {
      return 1;
    }
  }
  const std::string json = TableJson(true);
  return WriteFile(dir + "/workloads.json", json.data(), json.size()) ? 0 : 1;
}

int RunTwice(const std::string& id, int threads) {
  for (const Workload& w : Workloads()) {
    if (id != w.id) continue;
    Tensors t(w);
    for (int call = 0; call < 2; ++call) {
      const Status status = t.Run(w, threads);
      if (!status.ok()) {
        std::fprintf(stderr, "gridsample_workloads: %s: %s\n", w.id, status.message().c_str());
        return 1;
      }
    }
    return 0;
  }
  std::fprintf(stderr, "gridsample_workloads: no workload %s\n", id.c_str());
  return 2;
}

int Main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--json") == 0) {
    std::fputs(TableJson(false).c_str(), stdout);
    return 0;
  }
  if (argc == 3 && std::strcmp(argv[1], "--write") == 0) return WriteData(argv[2]);
  if ((argc == 3 || argc == 4) && std::strcmp(argv[1], "--run") == 0) {
    return RunTwice(argv[2], argc == 4 ? std::atoi(argv[3]) : 1);
  }
  std::fprintf(stderr, "usage: %s --json | --write DIR | --run ID [THREADS]\n", argv[0]);
  return 2;
}

}  // namespace
}  // namespace bench
}  // namespace gridsample

int main(int argc, char** argv) { return gridsample::bench::Main(argc, argv); }
