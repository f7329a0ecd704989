// XStat decoding and rendering, shared by the importer (event metadata stats, counters, flows)
// and the details pane (an XEvent's own stats, decoded on selection).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/base/string_table.h"
#include "core/formats/protobuf/wire.h"
#include "core/formats/xplane/xplane_tables.h"

namespace strata {

struct StatValue {
  enum Kind : uint8_t { kUnset, kDouble, kUint, kInt, kStr, kBytes, kRef };
  int64_t metadata_id = 0;
  Kind kind = kUnset;
  // kUint, kInt (two's complement), kRef (an XStatMetadata id), kDouble; kBytes: the size.
  uint64_t bits = 0;
  std::string_view s;  // kStr, kBytes: the payload inside the decoded range (bytes: may be
                       // empty when only the size was kept)

  bool is_integer() const { return kind == kUint || kind == kInt; }
  int64_t as_int() const { return static_cast<int64_t>(bits); }
  double as_number() const;  // doubles and integers; 0 for the rest
};

// Decodes one XStat message [p, p + n). False when it is malformed (reason in *why); a stat
// without a value decodes as kUnset. Unknown fields are skipped, as protobuf does, except
// kBytesSizeField, which only Strata writes (in memory): a bytes value of which only the size
// was kept.
constexpr uint32_t kBytesSizeField = 15;
// Always inlined: it runs for every stat of every event.
[[gnu::always_inline]] inline bool decode_stat(const uint8_t* p, size_t n, StatValue* out,
                                               const char** why);

// Appends one XStat as a field 5 (XEventMetadata.stats) entry to `out`, replacing a bytes value
// longer than `keep_bytes` by its size.
void append_stat_field(std::string* out, const uint8_t* p, size_t n, const StatValue& v,
                       size_t keep_bytes);

// The text of a str or ref stat (ref: the name of the XStatMetadata it points to); empty for
// other kinds.
std::string_view stat_text(const StringTable& strings, const XPlaneTables& plane,
                           const StatValue& v);

// Appends `"name":value` (a JSON object member): numbers as numbers (64-bit integers beyond
// 2^53, which JavaScript cannot hold exactly, as decimal strings), str and ref as strings, bytes
// as "<N bytes>", the `flow` stat as {id, direction, category}.
void append_stat_member(std::string* out, const StringTable& strings, const XPlaneTables& plane,
                        const StatValue& v);

// Stats the importer acts on (by name); everything else is only shown in the details pane.
enum class StatRole : uint8_t {
  kOther = 0,
  kFlow,           // XFlow: a flow step
  kCorrelationId,  // links a host launch to its device kernel / memcpy
  kStepName,       // renames the event (Steps rows)
  kGroupId,        // the step an event belongs to
  kHloOp,          // derived rows: XLA Ops
  kHloModule,      //               XLA Modules
  kProgramId,      //               "module(program_id)"; also the HloProto key
  kKernelDetails,  // the event is a kernel
  kMemcpyDetails,  // the event is a memcpy
  kTfOp,           // derived rows: Framework Ops / Name Scope
  kSource,         //               Source code ("source" or "source_info")
  kIsAsync,        // not a framework op for the derived rows
  kHloProto,       // a serialized HloProto on the metadata plane
};
StatRole stat_role(std::string_view stat_name);

// XProf's XFlow: a flow step packed in one uint64 (direction: 2 bits, id: 56, category: 6).
struct XFlow {
  uint64_t id = 0;
  int direction = 0;  // 1 in (the flow ends here), 2 out (starts), 3 in-out (passes through)
  int category = 0;   // XProf ContextType
  static XFlow decode(uint64_t v) {
    return XFlow{(v >> 2) & ((uint64_t{1} << 56) - 1), static_cast<int>(v & 3),
                 static_cast<int>(v >> 58)};
  }
};
// XProf's name of a ContextType ("gpu_launch", "tf_exec", ...; "flow" for generic ones).
const char* flow_category_name(int category);

// ---- implementation -------------------------------------------------------------------------

[[gnu::always_inline]] inline bool decode_stat(const uint8_t* p, size_t n, StatValue* out,
                                               const char** why) {
  // Fast path: metadata_id, then one value, each behind a one-byte tag, which is how every
  // profiler writes an XStat. Anything else (and anything malformed) takes the general loop
  // below, which decodes it the same way or says what is wrong.
  if (n >= 2 && p[0] == (1 << 3 | wire::kVarint)) {
    const uint8_t* q = p + 1;
    const uint8_t* end = p + n;
    uint64_t id, len;
    if (wire::read_varint(q, end, &id)) {
      StatValue v;
      v.metadata_id = static_cast<int64_t>(id);
      bool ok = q == end;  // no value: kUnset
      if (!ok) {
        const uint8_t tag = *q++;
        switch (tag) {
          case 2 << 3 | wire::kFixed64:
            if (end - q >= 8) std::memcpy(&v.bits, q, 8), q += 8, v.kind = StatValue::kDouble;
            ok = v.kind == StatValue::kDouble && q == end;
            break;
          case 3 << 3 | wire::kVarint:
            ok = wire::read_varint(q, end, &v.bits) && q == end, v.kind = StatValue::kUint;
            break;
          case 4 << 3 | wire::kVarint:
            ok = wire::read_varint(q, end, &v.bits) && q == end, v.kind = StatValue::kInt;
            break;
          case 7 << 3 | wire::kVarint:
            ok = wire::read_varint(q, end, &v.bits) && q == end, v.kind = StatValue::kRef;
            break;
          case 5 << 3 | wire::kLen:
          case 6 << 3 | wire::kLen:
            if (wire::read_varint(q, end, &len) && len == static_cast<uint64_t>(end - q)) {
              v.kind = tag >> 3 == 5 ? StatValue::kStr : StatValue::kBytes;
              v.s = std::string_view(reinterpret_cast<const char*>(q), static_cast<size_t>(len));
              v.bits = len;
              ok = true;
            }
            break;
          default:
            break;
        }
      }
      if (ok) {
        *out = v;
        return true;
      }
    }
  }
  *out = StatValue{};
  wire::Reader r(p, n);
  wire::Field f;
  for (;;) {
    wire::Status st = r.next(&f);
    if (st == wire::Status::kEnd) return true;
    if (st != wire::Status::kOk) {
      *why = r.why;
      return false;
    }
    // The oneof's last value wins, as protobuf parses it.
    switch (f.number) {
      case 1:
        if (f.type != wire::kVarint) break;
        out->metadata_id = static_cast<int64_t>(f.value);
        continue;
      case 2:
        if (f.type != wire::kFixed64) break;
        out->kind = StatValue::kDouble, out->bits = f.value;
        continue;
      case 3:
        if (f.type != wire::kVarint) break;
        out->kind = StatValue::kUint, out->bits = f.value;
        continue;
      case 4:
        if (f.type != wire::kVarint) break;
        out->kind = StatValue::kInt, out->bits = f.value;
        continue;
      case 5:
      case 6:
        if (f.type != wire::kLen) break;
        out->kind = f.number == 5 ? StatValue::kStr : StatValue::kBytes;
        out->s = f.text();
        out->bits = f.size;
        continue;
      case kBytesSizeField:
        if (f.type != wire::kVarint) break;
        out->kind = StatValue::kBytes, out->s = {}, out->bits = f.value;
        continue;
      case 7:
        if (f.type != wire::kVarint) break;
        out->kind = StatValue::kRef, out->bits = f.value;
        continue;
      default:
        continue;  // unknown field: skipped
    }
    *why = "XStat field with the wrong wire type";
    return false;
  }
}

}  // namespace strata
