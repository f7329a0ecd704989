// Walks only what it needs of an XSpace: the planes' names, and on the metadata plane the stat
// names (to learn which stat ids are "Hlo Proto" and "program_id") and the event metadata.
// The importer finds the same spans while importing (xplane_plane.cc); this is the standalone
// path for a file given to the graph view alone, and for tests.
#include "core/formats/hlo/xplane_hlo.h"

#include <string_view>

#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/protobuf/wire.h"
#include "core/formats/xplane/xplane_stats.h"

namespace strata::hlo {
namespace {

using wire::Field;
using wire::Reader;
using wire::Status;

constexpr std::string_view kMetadataPlane = "/host:metadata";

// A map<int64, Message> entry: key (1), value (2).
bool map_entry(const Field& e, int64_t* key, const uint8_t** value, size_t* value_len) {
  Reader r(e.data, e.size);
  Field f;
  Status st;
  *key = 0;
  *value = nullptr;
  *value_len = 0;
  while ((st = r.next(&f)) == Status::kOk) {
    if (f.number == 1 && f.type == wire::kVarint) *key = static_cast<int64_t>(f.value);
    if (f.number == 2 && f.type == wire::kLen) *value = f.data, *value_len = f.size;
  }
  return st == Status::kEnd;
}

bool metadata_plane(const uint8_t* base, const uint8_t* p, size_t n, std::vector<HloProtoSpan>* out,
                    std::string* error) {
  // Pass 1: stat names (protobuf writes the stat_metadata map after event_metadata).
  int64_t hlo_stat = -1, program_stat = -1;
  Reader r(p, n);
  Field f;
  Status st;
  while ((st = r.next(&f)) == Status::kOk) {
    if (f.number != 5 || f.type != wire::kLen) continue;
    int64_t key;
    const uint8_t* v;
    size_t vn;
    if (!map_entry(f, &key, &v, &vn) || !v) continue;
    Reader mr(v, vn);
    Field mf;
    while (mr.next(&mf) == Status::kOk) {
      if (mf.number != 2 || mf.type != wire::kLen) continue;
      if (mf.text() == "Hlo Proto") hlo_stat = key;
      if (mf.text() == "program_id") program_stat = key;
    }
  }
  if (st != Status::kEnd) {
    *error =
        "byte " + std::to_string(r.field_start - base) + ": " + r.why + " in the metadata plane";
    return false;
  }
  if (hlo_stat < 0) return true;
  // Pass 2: event metadata carrying an "Hlo Proto" stat.
  Reader r2(p, n);
  while (r2.next(&f) == Status::kOk) {
    if (f.number != 4 || f.type != wire::kLen) continue;
    int64_t key;
    const uint8_t* v;
    size_t vn;
    if (!map_entry(f, &key, &v, &vn) || !v) continue;
    HloProtoSpan span;
    span.program_id = key;
    bool found = false;
    Reader er(v, vn);
    Field ef;
    while (er.next(&ef) == Status::kOk) {
      if (ef.type != wire::kLen) continue;
      if (ef.number == 2) span.module = std::string(ef.text());
      if (ef.number != 5) continue;
      StatValue sv;
      const char* why = "";
      if (!decode_stat(ef.data, ef.size, &sv, &why)) continue;
      if (sv.metadata_id == hlo_stat && sv.kind == StatValue::kBytes) {
        span.src_offset =
            static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(sv.s.data()) - base);
        span.src_len = sv.s.size();
        found = true;
      } else if (sv.metadata_id == program_stat && sv.is_integer()) {
        span.program_id = sv.as_int();
      }
    }
    if (found) out->push_back(std::move(span));
  }
  return true;
}

}  // namespace

bool find_xplane_hlo_protos(const uint8_t* data, size_t size, std::vector<HloProtoSpan>* out,
                            std::string* error) {
  Reader r(data, size);
  Field f;
  Status st;
  while ((st = r.next(&f)) == Status::kOk) {
    if (f.number != 1 || f.type != wire::kLen) continue;  // XSpace.planes
    Reader pr(f.data, f.size);
    Field pf;
    std::string_view name;
    while (pr.next(&pf) == Status::kOk)
      if (pf.number == 2 && pf.type == wire::kLen) {
        name = pf.text();
        break;
      }
    if (name != kMetadataPlane) continue;
    if (!metadata_plane(data, f.data, f.size, out, error)) return false;
  }
  if (st != Status::kEnd) {
    *error = "byte " + std::to_string(r.field_start - data) + ": " + r.why + " in the XSpace";
    return false;
  }
  return true;
}

bool parse_xplane_hlo(const uint8_t* data, size_t size, std::vector<HloModule>* out,
                      std::vector<std::string>* errors) {
  std::vector<HloProtoSpan> spans;
  std::string error;
  if (!find_xplane_hlo_protos(data, size, &spans, &error)) {
    errors->push_back(error);
    return false;
  }
  for (const HloProtoSpan& s : spans) {
    HloModule m;
    if (!parse_hlo_proto(data + s.src_offset, s.src_len, &m, &error)) {
      errors->push_back("module '" + s.module + "' (program " + std::to_string(s.program_id) +
                        "): " + error);
      continue;
    }
    m.program_id = s.program_id;
    out->push_back(std::move(m));
  }
  return true;
}

}  // namespace strata::hlo
