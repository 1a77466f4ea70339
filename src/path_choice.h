// How the fast path chooses how to sample a call: a table of paths (path_choice.cc), each row
// naming the functions of its own files that say whether the path can sample a call, whether
// it pays there, and how it is set up; then the tiles and threads of the call.
#ifndef GRIDSAMPLE_SRC_PATH_CHOICE_H_
#define GRIDSAMPLE_SRC_PATH_CHOICE_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "channels_last.h"
#include "convert.h"
#include "gridsample/gridsample.h"
#include "linear_pairs.h"
#include "sampler.h"
#include "validate.h"

namespace gridsample {

// The element kind the window paths read for dtype D (the registry's Element column).
template <DType D>
constexpr ElementKind ElementKindOf() {
  switch (D) {
#define GRIDSAMPLE_DTYPE(Enum, name, Storage, Compute, Conversion, Grid, Element, ...) \
  case DType::k##Enum:                                                                 \
    return ElementKind::Element;
#include "gridsample/dtypes.inc"
  }
  return ElementKind::kNone;
}

// What the dtypes of a call allow: the paths' element kinds and grid types.
struct PathTypes {
  ElementKind element_kind;
  bool windows;        // X has an element kind and the grid computes in float32
  bool channels_last;  // ... and the element kind is a float one
  bool float32_x;
  bool float32_grid;
  size_t x_bytes;  // bytes per element of X
};

template <DType XD, DType GD>
constexpr PathTypes PathTypesOf() {
  constexpr ElementKind kElementKind = ElementKindOf<XD>();
  constexpr bool kWindows = kElementKind != ElementKind::kNone &&
                            std::is_same<typename Traits<GD>::Compute, float>::value;
  return {kElementKind,
          kWindows,
          kWindows && (kElementKind == ElementKind::kF32 || kElementKind == ElementKind::kF16 ||
                       kElementKind == ElementKind::kBF16),
          XD == DType::kFloat32,
          GD == DType::kFloat32,
          sizeof(typename Traits<XD>::Storage)};
}

// A call as the paths' conditions see it.
struct PathQuery {
  const Problem& problem;
  const Options& options;
  PathTypes types;
  size_t taps;         // per axis: 1, 2 or 4
  size_t rows;         // taps^(rank-1): a window path's rows per location
  size_t channels;     // C
  bool channels_last;  // ChannelsLast(problem)
  bool small_plane;    // the input planes fit the window and nearest plans (kMaxWindowPlane)
};

// A call timed for a contest between two paths (path_choice.cc): the contest's slot in their
// table (-1: the call is not timed), the slot's occupant then (a slot may pass to another kind of
// call meanwhile), and the way the call takes (0: the rule's path, 1: the other).
struct ContestTicket {
  int slot = -1;
  uint64_t entry = 0;
  int way = 0;
};

// The path and the settings of one call: the one place they are chosen (ChoosePath).
struct PathChoice {
  SamplerPath path = SamplerPath::kGeneric;
  size_t padded_channels = 0;    // the channels-last path's channels per pixel
  bool copy_pixels = false;      // the channels-last path reads a copy of X (else X itself)
  ChannelsLastFlags last_flags;  // how the channels-last path stores and weighs
  PairFlags pair_flags;          // how the pair path gathers its pairs and stores its sums
  size_t tile = 0;               // locations per tile, a multiple of kRowBlock
  size_t threads = 1;
  size_t channel_blocks = 1;  // work items split each tile's channels in this many blocks
  // The channels-last path's groups of planar X's channels (GroupChannels): the channels of
  // each, whose work items are one batch item's group over all its tiles; 0: work items of
  // tiles over one whole copy.
  size_t group_channels = 0;
  ContestTicket contest;  // where the call is timed for a contest (path_choice.cc)
};

// One row of the path table. `fits`: whether the path can sample the call at all (its element
// kinds, grid type, ranks, sizes and layout); `pays`: whether it beats the rows below it there
// (null: wherever it fits); `set_up`: the path's settings in *choice (null: none).
struct PathRow {
  SamplerPath path;
  const char* name;
  bool (*fits)(const PathQuery& query);
  bool (*pays)(const PathQuery& query);
  void (*set_up)(const PathQuery& query, PathChoice* choice);
};

// The paths that plan windows of adjacent elements (PlanWindowsTile) rather than per-axis taps.
constexpr bool IsWindowPath(SamplerPath path) {
  return path == SamplerPath::kPairs || path == SamplerPath::kChannelsLast ||
         path == SamplerPath::kQuads || path == SamplerPath::kPixelPairs;
}

// Whether the kernels see X and Y channels-last: with one channel, both layouts are the same
// memory, and the planar paths take it.
inline bool ChannelsLast(const Problem& p) {
  return p.layout == Layout::kChannelsLast && p.channels > 1;
}

// The first row of the table that fits the call and pays there (or the path a test forces,
// where it fits), its settings, and the call's tiles and threads.
PathChoice ChoosePath(const Problem& p, const Options& options, const PathTypes& types);

// The time a call of `choice` took, in seconds, from its setup to its last store: for the
// contest the call was timed for (nothing where choice.contest.slot is -1).
void RecordPathTrial(const PathChoice& choice, double seconds);

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_PATH_CHOICE_H_
