// The path table and the choice of a call's tiles and threads. Each path's conditions live in
// its own files (declared in its header); this file only orders them.
#include "path_choice.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>

#ifdef __linux__
#include <unistd.h>
#endif

#include "aligned_row.h"
#include "coords.h"
#include "channels_last.h"
#include "cubic_quads.h"
#include "hwy/base.h"
#include "linear_pairs.h"
#include "nearest.h"
#include "pixel_pairs.h"
#include "thread_pool.h"
#include "timed_choice.h"
#include "window_plan.h"

namespace gridsample {
namespace {

// The tuning constants of tiling and threads, each with its reason (docs/benchmarks.md has the
// figures); the paths' own are in their files.
struct Tuning {
  // Tap combinations held per tile on the generic path: the plan (about 16 bytes each) stays
  // in L2 while all channels reuse it.
  static constexpr size_t kPlanBudget = 16384;
  // Weights planned per tile on the window paths: larger tiles read each input plane fewer
  // times, smaller ones keep the plan nearer the core.
  static constexpr size_t kWindowPlanBudget = 8192;
  // Channel groups plan a batch item's locations in one tile where it holds at most this many
  // weights (W1's 16384 locations, a plan of 320 KB): a worker's next group of the item then
  // samples the plan it has, where tiles of kWindowPlanBudget planned every location once a
  // group. A plan read again from L2 or L3 cost less than planning it again (docs/benchmarks.md,
  // "One plan for an item's channel groups").
  static constexpr size_t kGroupPlanBudget = 65536;
  // Below this many weighted taps a call stays on the calling thread.
  static constexpr int64_t kParallelThreshold = 1 << 16;
  // Work items per thread where a call's batch is too small to give each thread some: tiles of
  // a batch item's locations, a few per thread, so that a thread the host delays holds back
  // less of the call.
  static constexpr size_t kItemsPerThread = 4;
  // The generic and nearest paths split channels over threads from this many per thread: two
  // threads splitting locations each read every input plane, and a block of channels shares
  // its tile's plan.
  static constexpr size_t kChannelBlocks = 4;
  // The channels-last path's channel groups (channels_last.h) per thread, at the least: whole
  // groups balance the threads' shares less finely than tiles. One a thread is enough where
  // each group's copy stays in its thread's L2 (GroupCopyBound), even if some threads get one
  // more: reading a whole copy from L3 costs more.
  static constexpr size_t kGroupsPerThread = 2;
  // Input planes of at most this many elements (16 KB of float32: an L1 holds one) leave
  // linear images and volumes that the channels-last path takes to a contest with the pair path
  // (Challenger).
  static constexpr int64_t kContestPlane = 4096;
};

bool Always(const PathQuery&) { return true; }

// The paths in priority order: a call takes the first row that fits and pays. The generic
// path, last, samples everything.
constexpr PathRow kPathTable[] = {
    {SamplerPath::kPixelPairs, "pixel_pairs", PixelPairsFit, nullptr, nullptr},
    {SamplerPath::kChannelsLast, "channels_last", ChannelsLastFits, ChannelsLastPays,
     SetUpChannelsLast},
    {SamplerPath::kQuads, "quads", QuadsPathFits, nullptr, nullptr},
    {SamplerPath::kPairs, "pairs", PairsPathFits, nullptr, SetUpPairs},
    {SamplerPath::kNearestPlan, "nearest_plan", NearestPlanFits, nullptr, nullptr},
    {SamplerPath::kGeneric, "generic", Always, nullptr, nullptr},
};
static_assert(std::size(kPathTable) == kSamplerPaths, "one row per SamplerPath");

std::atomic<int> forced_path{-1};  // ForceSamplerPathForTest's path, or -1
// ForcePairFlagsForTest's flags (hardware_gathers in bit 0, stream_output in bit 1), or -1.
std::atomic<int> forced_pair_flags{-1};
std::atomic<int> forced_permuted_weights{-1};  // ForcePermutedWeightsForTest's choice, or -1
std::atomic<size_t> forced_l2_bytes{0};        // ForceCoreL2BytesForTest's size, or 0

// The floats a channel group's copy may take for one group a thread to pay: as much as a core's
// L2 holds, as the OS reports it, and at most kGroupCopyBytes, where it was measured. An Intel
// Xeon's threads (2 MB of L2 each) gained with 1 MB copies, in WebAssembly too; an AMD Zen 3's
// (512 KB) gained with 512 KB ones but not with 1 MB ones (docs/benchmarks.md, "One group a
// thread, where each copy fits L2"). Where the OS does not say (WebAssembly), kGroupCopyBytes.
size_t GroupCopyBound() {
  static const size_t reported = [] {
    long bytes = 0;
#if defined(__linux__) && defined(_SC_LEVEL2_CACHE_SIZE)
    bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    return bytes > 0 ? static_cast<size_t>(bytes) : kGroupCopyBytes;
  }();
  const size_t forced = forced_l2_bytes.load(std::memory_order_relaxed);
  return std::min(forced > 0 ? forced : reported, kGroupCopyBytes) / sizeof(float);
}

// The row of `path` (every path has one: the static_assert above), or null past the last path.
const PathRow* RowOf(SamplerPath path) {
  for (const PathRow& row : kPathTable) {
    if (row.path == path) return &row;
  }
  return nullptr;
}

const PathRow& ChooseRow(const PathQuery& query) {
  const int forced = forced_path.load(std::memory_order_relaxed);
  for (const PathRow& row : kPathTable) {
    if (static_cast<int>(row.path) == forced && row.fits(query)) return row;
  }
  for (const PathRow& row : kPathTable) {
    if (row.fits(query) && (row.pays == nullptr || row.pays(query))) return row;
  }
  return kPathTable[std::size(kPathTable) - 1];
}

// The row of the path that a call is timed against on its first calls (a CallContest), where
// the rules gave it `row`; or null. Linear images and volumes on planar X that the channels-last
// path takes by its rule, whose planes are small enough for the pair path to sample each from L1,
// and those that the pair path takes by the channels-last path's rule where the grid may
// overturn it (ChannelsLastMayPay). Which of the two is faster there changes with the CPU, the
// target, the thread count, the shape and the grid, both ways on one core (docs/benchmarks.md,
// "The channels-last path against the pair path, timed on the calls"), so no rule holds; both
// give the same bits (channels_last.h), so the contest never shows in the outputs. Not while a
// test forces a path, and not in WebAssembly, whose engine runs a kernel's first calls in code
// it has not optimised yet: their times would compare the engine's stages rather than the paths.
const PathRow* Challenger(const PathQuery& q, const PathRow& row) {
  if (HWY_ARCH_WASM || q.taps != 2 || forced_path.load(std::memory_order_relaxed) >= 0) {
    return nullptr;
  }
  if (row.path == SamplerPath::kChannelsLast && q.problem.in_plane <= Tuning::kContestPlane &&
      PairsPathFits(q)) {
    return RowOf(SamplerPath::kPairs);
  }
  if (row.path == SamplerPath::kPairs && ChannelsLastFits(q) && ChannelsLastMayPay(q)) {
    return RowOf(SamplerPath::kChannelsLast);
  }
  return nullptr;
}

// What makes two calls the same kind for a contest: all that moves the two paths' times.
struct ContestKey {
  int64_t target = 0;  // DispatchedTarget()
  int64_t batch = 0, channels = 0, out_plane = 0;
  size_t rank = 0;
  std::array<int64_t, kMaxPairRank> in{};  // the input's spatial extents (0 past `rank`)
  ElementKind element_kind = ElementKind::kNone;
  bool float32_grid = false;
  Padding padding = Padding::kZeros;
  bool align_corners = false;
  size_t threads = 0;
  bool operator==(const ContestKey& o) const {
    return target == o.target && batch == o.batch && channels == o.channels &&
           out_plane == o.out_plane && rank == o.rank && in == o.in &&
           element_kind == o.element_kind && float32_grid == o.float32_grid &&
           padding == o.padding && align_corners == o.align_corners && threads == o.threads;
  }
};

// The contests of the kinds of call seen last, kSlots of them: a new kind takes the slot of the
// oldest, so that a process whose shapes keep changing holds a bounded table (and such calls
// keep the rule's path half the time while they are timed). Every entry is numbered, so that a
// call's time never lands in a slot another kind has taken since.
class PathContests {
 public:
  static constexpr size_t kSlots = 64;

  // The way a call of `key` takes (0: the rule's path, 1: the pair path), and the slot to
  // RecordPathTrial if the call is timed.
  ContestTicket Enter(const ContestKey& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    Slot* slot = nullptr;
    for (Slot& s : slots_) {
      if (s.entry != 0 && s.key == key) slot = &s;
    }
    if (slot == nullptr) {
      slot = &slots_[next_];
      next_ = (next_ + 1) % kSlots;
      *slot = Slot{key, CallContest(), ++entries_};
    }
    ContestTicket ticket;
    bool timed = false;
    ticket.way = slot->contest.Enter(&timed);
    if (timed) {
      ticket.slot = static_cast<int>(slot - slots_.data());
      ticket.entry = slot->entry;
    }
    return ticket;
  }
  void Record(const ContestTicket& ticket, double seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    Slot& slot = slots_[static_cast<size_t>(ticket.slot)];
    if (slot.entry == ticket.entry) slot.contest.Record(ticket.way, seconds);
  }
  void Reset() {
    std::lock_guard<std::mutex> lock(mutex_);
    slots_ = {};
    next_ = 0;
  }
  size_t Decided() {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<size_t>(std::count_if(slots_.begin(), slots_.end(), [](const Slot& s) {
      return s.entry != 0 && s.contest.decided();
    }));
  }

 private:
  struct Slot {
    ContestKey key;
    CallContest contest;
    uint64_t entry = 0;  // 0: empty
  };
  std::mutex mutex_;
  std::array<Slot, kSlots> slots_{};
  size_t next_ = 0;
  uint64_t entries_ = 0;
};

PathContests& Contests() {
  static PathContests* contests = new PathContests();  // never destroyed: calls may outlive exit
  return *contests;
}

// The tiles, threads and channel blocks of a call on choice->path.
void ChooseTiles(const Problem& p, const Options& options, size_t combinations,
                 PathChoice* choice) {
  const double work = static_cast<double>(p.y_count) * static_cast<double>(combinations);
  size_t threads = ThreadsForCall(options.num_threads);
  if (work < Tuning::kParallelThreshold) threads = 1;
  // On the generic and nearest paths, whose tiles read every input plane, threads split the
  // channels rather than the locations where there are enough of them (kChannelBlocks).
  if (!IsWindowPath(choice->path) && threads > 1 &&
      static_cast<size_t>(p.channels) >= Tuning::kChannelBlocks * threads) {
    choice->channel_blocks = threads;
  }
  // Channel groups are kept where they give every thread kGroupsPerThread of them, or one or
  // more each with each copy in L2 (GroupCopyBound), and the threads' copies fit; else the
  // threads split the tiles of one copy. (GroupChannels gives a batch item two groups or more: one
  // thread keeps them wherever they fit.)
  const size_t width = choice->group_channels;
  size_t groups = 0;
  if (width > 0) {
    const size_t channels = static_cast<size_t>(p.channels);
    groups = static_cast<size_t>(p.batch) * (channels / width);
    const size_t copy = GroupCopyFloats(channels, width, static_cast<size_t>(p.in_plane));
    const bool enough = groups >= Tuning::kGroupsPerThread * threads ||
                        (groups >= threads && copy <= GroupCopyBound());
    if (!enough || copy > kMaxChannelsLast / std::min(threads, groups)) {
      choice->group_channels = 0;
    }
  }
  // Tiles as large as the plan budget allows, but small enough that every thread gets a few
  // (a batch of one image must still spread over the threads): kItemsPerThread, or one where a
  // batch item has fewer locations than input elements per channel (a sparse sampling:
  // keypoints, queries), whose every tile's windows may lie all over every plane, so that each
  // tile more would read every plane's lines once more (docs/benchmarks.md, "Tiles of sparse
  // samplings").
  size_t tile = IsWindowPath(choice->path)
                    ? Tuning::kWindowPlanBudget / combinations
                    : std::max<size_t>(Tuning::kPlanBudget / combinations, 1);
  const size_t per_batch = static_cast<size_t>(p.out_plane);
  if (choice->group_channels > 0 && per_batch <= Tuning::kGroupPlanBudget / combinations) {
    tile = per_batch;
  }
  const size_t per_thread = p.out_plane < p.in_plane ? 1 : Tuning::kItemsPerThread;
  const size_t wanted_items =
      (per_thread * threads + choice->channel_blocks - 1) / choice->channel_blocks;
  if (threads > 1 && choice->group_channels == 0 && static_cast<size_t>(p.batch) < wanted_items) {
    const size_t per_item =
        (static_cast<size_t>(p.batch) * per_batch + wanted_items - 1) / wanted_items;
    tile = std::min(tile, std::max<size_t>(per_item, kRowBlock));
  }
  choice->tile = RoundUp(std::min(tile, per_batch), kRowBlock);
  const size_t tiles =
      static_cast<size_t>(p.batch) * ((per_batch + choice->tile - 1) / choice->tile);
  choice->threads =
      std::min(threads, choice->group_channels > 0 ? groups : tiles * choice->channel_blocks);
}

// The choice of `row` for the call: its settings, a test's forced flags, tiles and threads.
PathChoice ChoiceOf(const PathRow& row, const PathQuery& query, size_t combinations) {
  PathChoice choice;
  choice.path = row.path;
  if (row.set_up != nullptr) row.set_up(query, &choice);
  const int forced_flags = forced_pair_flags.load(std::memory_order_relaxed);
  if (choice.path == SamplerPath::kPairs && forced_flags >= 0) {
    choice.pair_flags.hardware_gathers = (forced_flags & 1) != 0;
    choice.pair_flags.stream_output = (forced_flags & 2) != 0;
  }
  const int forced_permuted = forced_permuted_weights.load(std::memory_order_relaxed);
  if (choice.path == SamplerPath::kChannelsLast && forced_permuted >= 0) {
    choice.last_flags.permuted_weights = forced_permuted != 0;
  }
  ChooseTiles(query.problem, query.options, combinations, &choice);
  return choice;
}

}  // namespace

PathChoice ChoosePath(const Problem& p, const Options& options, const PathTypes& types) {
  const size_t taps = static_cast<size_t>(TapsPerAxis(options.mode));
  size_t combinations = 1;
  for (size_t a = 0; a < p.rank; ++a) combinations *= taps;
  const PathQuery query{p,
                        options,
                        types,
                        taps,
                        combinations / taps,
                        static_cast<size_t>(p.channels),
                        ChannelsLast(p),
                        p.in_plane <= kMaxWindowPlane};
  const PathRow& row = ChooseRow(query);
  PathChoice choice = ChoiceOf(row, query, combinations);
  if (const PathRow* challenger = Challenger(query, row)) {
    ContestKey key{DispatchedTarget(),
                   p.batch,
                   p.channels,
                   p.out_plane,
                   p.rank,
                   {},
                   types.element_kind,
                   types.float32_grid,
                   options.padding,
                   options.align_corners,
                   choice.threads};
    std::copy(p.in.begin(), p.in.end(), key.in.begin());  // PairsPathFits: rank <= kMaxPairRank
    const ContestTicket ticket = Contests().Enter(key);
    if (ticket.way == 1) choice = ChoiceOf(*challenger, query, combinations);
    choice.contest = ticket;
  }
  return choice;
}

void RecordPathTrial(const PathChoice& choice, double seconds) {
  if (choice.contest.slot >= 0) Contests().Record(choice.contest, seconds);
}

const char* SamplerPathName(SamplerPath path) {
  const PathRow* row = RowOf(path);
  return row != nullptr ? row->name : nullptr;
}

void ForceSamplerPathForTest(std::optional<SamplerPath> path) {
  forced_path.store(path ? static_cast<int>(*path) : -1, std::memory_order_relaxed);
}

void ForcePairFlagsForTest(std::optional<PairFlags> flags) {
  const int bits = flags ? static_cast<int>(flags->hardware_gathers) |
                               static_cast<int>(flags->stream_output) << 1
                         : -1;
  forced_pair_flags.store(bits, std::memory_order_relaxed);
}

void ResetPathContestsForTest() { Contests().Reset(); }

size_t DecidedPathContestsForTest() { return Contests().Decided(); }

void ForceCoreL2BytesForTest(std::optional<size_t> bytes) {
  forced_l2_bytes.store(bytes ? std::max<size_t>(*bytes, 1) : 0, std::memory_order_relaxed);
}

void ForcePermutedWeightsForTest(std::optional<bool> permuted) {
  forced_permuted_weights.store(permuted ? static_cast<int>(*permuted) : -1,
                                std::memory_order_relaxed);
}

}  // namespace gridsample
