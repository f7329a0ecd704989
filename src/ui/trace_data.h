// What the UI knows of the loaded trace: the track list, the names it has been sent, and the
// latest view reply (the timeline files it in its tile cache, ui/timeline/tiles.h). All of it
// arrives from the engine worker as protocol messages (protocol/view_messages.h); nothing here
// touches the trace itself.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/types.h"
#include "protocol/view_messages.h"

namespace strata {

struct UiProcess {
  int64_t pid = 0;
  std::string name;
  uint32_t first_track = 0, track_count = 0;
  std::string labels;  // Kineto's process_labels, joined: "CPU", "GPU 0"
  std::string key;     // the pid as the file wrote it (a string pid stays text)
};

struct UiTrack {
  int64_t tid = 0;
  uint32_t process = 0;
  uint32_t kind = 0;  // TrackKind
  std::string name;
  uint32_t rows = 1;
  uint32_t event_count = 0;
  uint32_t first_series = 0, series_count = 0;
};

struct UiSeries {
  double min = 0, max = 0;
  uint32_t track = 0;
  std::string name;
  bool in_bytes = false;  // values are byte sizes (labelled "1.09 GiB")
};

struct ViewReply {
  bool valid = false;
  uint32_t request_id = 0;
  double start = 0, end = 0;  // relative ns the reply covers
  uint32_t width_px = 0;
  std::vector<proto::SliceEntry> slices;
  std::vector<proto::BucketEntry> buckets;
  std::vector<proto::FlowEntry> flows;
};

struct TraceData {
  bool loaded = false;
  uint32_t generation = 0;
  TimeNs origin_ns = 0;
  double extent_ns = 0;
  std::vector<UiProcess> processes;
  std::vector<UiTrack> tracks;  // display order
  std::vector<UiSeries> series;
  std::vector<std::string> names;  // by string id; filled as view replies bring them
  std::vector<uint32_t> name_colors;
  size_t names_received = 0;  // names filled in so far (views that depend on names redo them)
  ViewReply reply;
  // The whole trace at a coarse resolution, requested once per trace: drawn wherever no tile
  // of the view's level (or a near one) is cached yet, so the timeline never shows a gap.
  ViewReply overview;
  uint32_t overview_request = 0;

  // Applies one protocol message. Returns false (and leaves the data as it was) when the
  // message is malformed or belongs to an older trace generation.
  bool apply(const uint8_t* data, size_t n);
  const std::string& name(uint32_t id) const;
};

}  // namespace strata
