// The fast path: plan → kernel → convert, over tiles of output locations.
//
// A tile is up to `tile` output locations of one batch item. Its plan (the integer taps and
// weights of every axis, then their combinations) is computed once and reused by every
// channel, so coordinate math and padding never run per channel. Tiles are the unit of
// parallel work: results do not depend on how they are spread over threads. Which path samples
// a call, and its tiles and threads, are path_choice.cc's; the paths' tile functions are
// generic_path.h's and window_tiles.h's. This file keeps the scratch, the channels-last copy
// and the threads.
#include "sampler.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <new>
#include <string>
#include <system_error>
#include <vector>

#include "aligned_row.h"
#include "call_setup.h"
#include "channels_last.h"
#include "dispatch.h"
#include "generic_path.h"
#include "output_progress.h"
#include "path_choice.h"
#include "thread_pool.h"
#include "window_tiles.h"

namespace gridsample {
namespace {

thread_local OutputProgress* output_progress = nullptr;  // SetOutputProgress's

// The channels-last copy of up to kMaxChannelsLast floats (ChannelsLastFits keeps one batch
// item within it), kept by each calling thread for its next call: a fresh copy of a few
// megabytes costs the kernel's page faults, as much as the path saves (docs/benchmarks.md).
// Throws std::bad_alloc.
float* KeptCopy(size_t floats) {
  thread_local AlignedRow<float> kept;
  thread_local size_t size = 0;
  if (size < floats) {
    kept.reset();  // the old one first: both need not fit at once
    size = 0;
    kept = AllocateRow<float>(floats);
    size = floats;
  }
  return kept.get();
}

// One worker's scratch: the generic path's or the window paths', whichever the call takes.
template <typename C>
struct Scratch {
  GenericScratch<C> generic;
  WindowScratch windows;
  void Allocate(const CallSetup& setup) {
    if (IsWindowPath(setup.choice.path)) {
      windows.Allocate(setup);
    } else {
      generic.Allocate(setup);
    }
  }
};

// CallSetup::tile_shift for a call writing Y at `y`: where the pair path streams float32 sums
// (PairFlags::stream_output) and every plane of Y starts as far into a line as the first, the
// first tile is short by that many locations; else 0.
int64_t TileShift(const Problem& p, const PathChoice& choice, DType dtype, const void* y) {
  constexpr size_t kLine = 64;
  // Tiles (ChooseTiles: multiples of kRowBlock) then end on line boundaries too.
  static_assert(kRowBlock % (kLine / sizeof(float)) == 0, "tiles of whole lines");
  const auto at = reinterpret_cast<uintptr_t>(y);
  const size_t plane_bytes = static_cast<size_t>(p.out_plane) * sizeof(float);
  if (choice.path != SamplerPath::kPairs || !choice.pair_flags.stream_output ||
      dtype != DType::kFloat32 || at % sizeof(float) != 0 || plane_bytes % kLine != 0) {
    return 0;
  }
  return static_cast<int64_t>(at % kLine / sizeof(float));
}

// The calling thread's sink (output_progress.h) where this call can tell it of every part of
// Y: each work item's part a run per channel (channels-first) or one run of whole pixels
// (channels-last). Else nullptr: channels-last pixels whose channels a call splits over work
// items would be a run per pixel.
OutputProgress* ProgressFor(const Problem& p, const PathChoice& choice) {
  const bool some_channels = choice.channel_blocks > 1 || choice.group_channels > 0;
  if (ChannelsLast(p) && some_channels) return nullptr;
  return output_progress;
}

// ParallelFor's `waiting` of a call that reports: its sink's Waiting.
std::function<bool()> WaitingOf(const CallSetup& setup) {
  if (setup.progress == nullptr) return nullptr;
  return [progress = setup.progress] { return progress->Waiting(); };
}

template <DType XD, DType GD>
CallSetup MakeSetup(const Problem& p, const Options& options, const PathChoice& choice,
                    const void* y) {
  CallSetup setup;
  setup.choice = choice;
  setup.problem = &p;
  setup.options = options;
  setup.taps = static_cast<size_t>(TapsPerAxis(options.mode));
  setup.combinations = 1;
  for (size_t a = 0; a < p.rank; ++a) setup.combinations *= setup.taps;
  setup.tile_shift = TileShift(p, choice, XD, y);
  setup.tiles_per_batch = (p.out_plane + setup.tile_shift + static_cast<int64_t>(choice.tile) - 1) /
                          static_cast<int64_t>(choice.tile);
  setup.element_kind = ElementKindOf<XD>();  // read on the window paths only
  setup.rows = setup.combinations / setup.taps;
  if (IsWindowPath(choice.path)) {
    WindowRowDeltas(p.rank, setup.taps, p.in.data(), p.stride.data(), setup.row_deltas);
  }
  setup.pixels = nullptr;
  setup.pixels_batch = 0;
  setup.pixel_step = PixelStep(p);
  setup.exact = kExactOutputs<XD> && !IsWindowPath(choice.path) && options.mode != Mode::kNearest;
  setup.fixed_bits = kExactOutputs<XD> ? kFixedBits<XD> : 0;
  setup.progress = ProgressFor(p, choice);
  return setup;
}

// The channels of channel block `block` (of choice.channel_blocks), which one work item of a
// tile samples.
ChannelRange BlockChannels(const CallSetup& setup, size_t block) {
  const size_t channels = static_cast<size_t>(setup.problem->channels);
  const size_t blocks = setup.choice.channel_blocks;
  const size_t first = block * channels / blocks;
  return {first, (block + 1) * channels / blocks - first};
}

// Tells setup.progress (not nullptr) that `channels` of batch item n are final at `count`
// locations from l0 (where Y is channels-last, ProgressFor has made sure they are all of them).
template <DType XD>
void ReportFinished(const CallSetup& setup, const void* y, int64_t n, ChannelRange channels,
                    int64_t l0, size_t count) {
  const Problem& p = *setup.problem;
  constexpr size_t kSize = sizeof(typename Traits<XD>::Storage);
  const int64_t element =
      ChannelStart(p, n, static_cast<int64_t>(channels.first), p.out_plane) + l0 * setup.pixel_step;
  const auto* first = static_cast<const unsigned char*>(y) + element * static_cast<int64_t>(kSize);
  if (ChannelsLast(p)) {
    setup.progress->Finished(first, count * channels.count * kSize, 1, 0);
  } else {
    setup.progress->Finished(first, count * kSize, channels.count,
                             static_cast<size_t>(p.out_plane) * kSize);
  }
}

// Copies batch items n0 .. n0 + items - 1 of X to `pixels` for the channels-last path, their
// channels side by side, padded_channels apart, in work items over the threads.
template <DType XD>
void CopyToPixels(const CallSetup& setup, const void* x, int64_t n0, int64_t items, float* pixels) {
  const Problem& p = *setup.problem;
  const size_t channels = static_cast<size_t>(p.channels);
  const size_t plane = static_cast<size_t>(p.in_plane), padded = setup.choice.padded_channels;
  const size_t per_item = RoundUp(std::max<size_t>(kToChannelsLastItem / channels, 1), kRowBlock);
  const size_t blocks = (plane + per_item - 1) / per_item;
  ParallelFor(static_cast<size_t>(items) * blocks, setup.choice.threads, [&](size_t item, size_t) {
    const size_t k = item / blocks, begin = item % blocks * per_item;
    const auto* from = static_cast<const typename Traits<XD>::Storage*>(x) +
                       (static_cast<size_t>(n0) + k) * channels * plane;
    float* to = pixels + k * plane * padded;
    const size_t end = std::min(plane, begin + per_item);
    if (ChannelsLast(p)) {
      PadChannelsLast(setup.element_kind, from, channels, padded, begin, end, to);
    } else {
      ToChannelsLast(setup.element_kind, from, channels, plane, padded, begin, end, to);
    }
  });
}

// Plans and samples one work item: a tile's channel block (block `block` of
// choice.channel_blocks) on the call's path.
template <DType XD, DType GD, typename C>
void SampleItem(const CallSetup& setup, const void* grid, const void* x, void* y, int64_t n,
                int64_t l0, size_t count, size_t block, Scratch<C>* s) {
  constexpr PathTypes kTypes = PathTypesOf<XD, GD>();
  if constexpr (kTypes.windows) {
    if (IsWindowPath(setup.choice.path)) {
      const WindowPlanView plan = PlanWindowsTile<GD>(setup, grid, n, l0, count, &s->windows);
      switch (setup.choice.path) {
        case SamplerPath::kPixelPairs:
          if constexpr (PixelPairsKind(kTypes.element_kind)) {
            SamplePixelPairsTile<XD, GD>(setup, plan, grid, x, y, n, l0);
          }
          return;
        case SamplerPath::kChannelsLast:
          if constexpr (kTypes.channels_last) {
            const Problem& p = *setup.problem;
            const size_t padded = setup.choice.padded_channels;
            SampleChannelsLastTile<XD, GD>(
                setup, plan, grid, x, y, n, l0,
                setup.pixels + static_cast<size_t>((n - setup.pixels_batch) * p.in_plane) * padded,
                ChannelRange{0, static_cast<size_t>(p.channels)}, padded);
          }
          return;
        default:
          SampleWindowsTile<XD, GD>(setup, plan, grid, x, y, n, l0);
          return;
      }
    }
  }
  // Each channel block's worker plans the tile for itself.
  const ChannelRange channels = BlockChannels(setup, block);
  const auto c0 = static_cast<int64_t>(channels.first);
  PlanTile<GD>(setup, grid, n, l0, count, &s->generic);
  SampleTile<XD>(setup, x, y, n, l0, count, c0, c0 + static_cast<int64_t>(channels.count),
                 &s->generic);
}

// The channels-last path over channel groups (PathChoice::group_channels): each work item
// copies one batch item's group of channels to its worker's pixels and samples them at every
// tile of the item, so that the group's copy is still in that core's cache. Where one tile is
// the whole item, a worker's groups of one item (ParallelFor's shares are runs of items) share
// its plan.
template <DType XD, DType GD, typename C>
void SampleChannelGroups(const CallSetup& setup, const void* grid, const void* x, void* y,
                         std::vector<Scratch<C>>& scratch) {
  const Problem& p = *setup.problem;
  const PathChoice& choice = setup.choice;
  const size_t channels = static_cast<size_t>(p.channels), width = choice.group_channels;
  const size_t groups = channels / width, plane = static_cast<size_t>(p.in_plane);
  const size_t pitch = GroupCopyFloats(channels, width, plane);
  float* copies = KeptCopy(choice.threads * pitch);
  std::vector<int64_t> planned(choice.threads, -1);  // the item each worker's plan is of, if whole
  std::vector<WindowPlanView> plans(choice.threads);
  ParallelFor(
      static_cast<size_t>(p.batch) * groups, choice.threads,
      [&](size_t item, size_t worker) {
        const int64_t n = static_cast<int64_t>(item / groups);
        const ChannelRange group = ChannelGroup(channels, width, item % groups);
        const size_t padded = PaddedChannels(group.count);
        float* pixels = copies + worker * pitch;
        ToChannelsLast(setup.element_kind,
                       static_cast<const typename Traits<XD>::Storage*>(x) +
                           ChannelStart(p, n, static_cast<int64_t>(group.first), p.in_plane),
                       group.count, plane, padded, 0, plane, pixels);
        for (int64_t t = 0; t < setup.tiles_per_batch; ++t) {
          const auto [l0, count] = TileAt(setup, t);
          if (planned[worker] != n) {
            plans[worker] =
                PlanWindowsTile<GD>(setup, grid, n, l0, count, &scratch[worker].windows);
            planned[worker] = setup.tiles_per_batch == 1 ? n : -1;
          }
          SampleChannelsLastTile<XD, GD>(setup, plans[worker], grid, x, y, n, l0, pixels, group,
                                         padded);
          if (setup.progress != nullptr) ReportFinished<XD>(setup, y, n, group, l0, count);
        }
      },
      WaitingOf(setup));
}

// Every tile of the call (CopyToPixels first for the channels-last path's copy), in work items
// over the threads.
template <DType XD, DType GD, typename C>
void SampleTiles(CallSetup& setup, const void* grid, const void* x, void* y,
                 std::vector<Scratch<C>>& scratch) {
  const Problem& p = *setup.problem;
  const PathChoice& choice = setup.choice;
  // The channels-last path copies and samples a few batch items at a time: one per thread, at
  // most as many as the kept copy holds, so that each item's pixels are sampled while they are
  // still in the cache of the core that copied them. The other paths, and the channels-last
  // path reading X itself, take the whole batch at once.
  int64_t batch_step = p.batch;
  float* pixels = nullptr;
  const size_t plane = static_cast<size_t>(p.in_plane), padded = choice.padded_channels;
  const bool copy = PathTypesOf<XD, GD>().channels_last && choice.copy_pixels;
  if (copy) {
    batch_step = std::min({p.batch, static_cast<int64_t>(choice.threads),
                           static_cast<int64_t>(kMaxChannelsLast / (plane * padded))});
    pixels = KeptCopy(static_cast<size_t>(batch_step) * plane * padded);
    setup.pixels = pixels;
  } else if (padded > 0) {
    setup.pixels = static_cast<const float*>(x);
  }
  for (int64_t n0 = 0; n0 < p.batch; n0 += batch_step) {
    const int64_t batch_items = std::min(batch_step, p.batch - n0);
    if (copy) {
      CopyToPixels<XD>(setup, x, n0, batch_items, pixels);
      setup.pixels_batch = n0;
    }
    // Items run block by block (ParallelFor gives each thread a contiguous share: one channel
    // block of every tile, whose planes are all it reads).
    const size_t tiles = static_cast<size_t>(batch_items * setup.tiles_per_batch);
    const size_t items = tiles * choice.channel_blocks;
    ParallelFor(
        items, std::min(choice.threads, items),
        [&](size_t item, size_t worker) {
          const int64_t tile = static_cast<int64_t>(item % tiles);
          const int64_t n = n0 + tile / setup.tiles_per_batch;
          const auto [l0, count] = TileAt(setup, tile % setup.tiles_per_batch);
          SampleItem<XD, GD>(setup, grid, x, y, n, l0, count, item / tiles, &scratch[worker]);
          // Only a call that reports works out the block's channels again.
          if (setup.progress != nullptr) {
            ReportFinished<XD>(setup, y, n, BlockChannels(setup, item / tiles), l0, count);
          }
        },
        WaitingOf(setup));
  }
}

template <DType XD, DType GD>
void SampleCall(const Problem& p, const TensorView& x, const TensorView& grid,
                const MutableTensorView& y, const Options& options) {
  using C = typename Traits<XD>::Compute;
  if (p.y_count == 0) return;
  CallSetup setup =
      MakeSetup<XD, GD>(p, options, ChoosePath(p, options, PathTypesOf<XD, GD>()), y.data);
  const PathChoice& choice = setup.choice;
  // Only a contest's calls read the clock: the smallest calls take well under a microsecond.
  const bool timed = choice.contest.slot >= 0;
  const auto start =
      timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
  std::vector<Scratch<C>> scratch(choice.threads);
  for (Scratch<C>& worker : scratch) worker.Allocate(setup);
  bool grouped = false;
  if constexpr (PathTypesOf<XD, GD>().channels_last) {
    grouped = choice.group_channels > 0;
    if (grouped) SampleChannelGroups<XD, GD>(setup, grid.data, x.data, y.data, scratch);
  }
  if (!grouped) SampleTiles<XD, GD>(setup, grid.data, x.data, y.data, scratch);
  if (timed) {
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    RecordPathTrial(choice, took.count());
  }
}

}  // namespace

void SetOutputProgress(OutputProgress* progress) { output_progress = progress; }

Status RunSampler(const Problem& problem, const TensorView& x, const TensorView& grid,
                  const MutableTensorView& y, const Options& options) {
  try {
    VisitDTypes(x.dtype, grid.dtype, [&](auto xd, auto gd) {
      SampleCall<decltype(xd)::value, decltype(gd)::value>(problem, x, grid, y, options);
    });
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kOutOfRange, "y: out of memory for the sampling plan");
  } catch (const std::system_error& e) {  // the thread pool could not start its threads
    return Status(StatusCode::kOutOfRange, std::string("options.num_threads: ") + e.what());
  }
  return Status::Ok();
}

}  // namespace gridsample
