#include "core/formats/xplane/xplane_details.h"

#include <vector>

#include "core/base/json_writer.h"
#include "core/formats/protobuf/wire.h"
#include "core/formats/xplane/program_id.h"
#include "core/formats/xplane/xla_op_name.h"
#include "core/formats/xplane/xplane_stats.h"
#include "protocol/reply_keys.h"

namespace strata {

namespace {

// Stats that describe an XLA op, in the order the details pane lists them.
constexpr std::string_view kXlaStats[] = {
    "hlo_op",
    "hlo_module",
    "program_id",
    "hlo_category",
    "long_name",
    "deduplicated_name",
    "flops",
    "model_flops",
    "bytes_accessed",
    "raw_bytes_accessed",
    "shape_with_layout",
    "tf_op",
    "source",
    "source_info",
    "source_stack",
    "kernel_details",
};

std::string error_json(const std::string& why) {
  std::string o = "{\"error\":";
  json_append_string(&o, why);
  return o + "}";
}

// Appends the stats of a repeated-XStat field range; false when one does not decode.
bool collect_stats(const uint8_t* p, size_t n, uint32_t field, std::vector<StatValue>* out,
                   std::string* why) {
  wire::Reader r(p, n);
  wire::Field f;
  wire::Status st;
  while ((st = r.next(&f)) == wire::Status::kOk) {
    if (f.number != field || f.type != wire::kLen) continue;
    StatValue v;
    const char* reason = "";
    if (!decode_stat(f.data, f.size, &v, &reason)) {
      *why = std::string("malformed XStat: ") + reason;
      return false;
    }
    // A later stat of the same name replaces an earlier one in place (XProf: metadata stats
    // first, then the event's).
    bool replaced = false;
    for (StatValue& o : *out)
      if (o.metadata_id == v.metadata_id) o = v, replaced = true;
    if (!replaced) out->push_back(v);
  }
  if (st != wire::Status::kEnd) {
    *why = std::string("malformed XEvent: ") + r.why;
    return false;
  }
  return true;
}

}  // namespace

std::string xplane_record_json(const TraceStore& s, uint32_t event, std::string_view bytes) {
  const XSpaceTables* x = s.xspace.get();
  if (!x || event >= s.events.size()) return "null";
  const uint32_t track = s.events.track[event];
  const uint32_t process = s.tracks[track].process;
  if (process >= x->plane_of_process.size() || x->plane_of_process[process] == kNone) return "null";
  const XPlaneTables& plane = x->planes[x->plane_of_process[process]];
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());

  int64_t metadata_id = 0, offset_ps = 0, duration_ps = 0;
  {
    wire::Reader r(p, bytes.size());
    wire::Field f;
    wire::Status st;
    while ((st = r.next(&f)) == wire::Status::kOk) {
      if (f.type != wire::kVarint) continue;
      if (f.number == 1) metadata_id = wire::as_int64(f.value);
      if (f.number == 2) offset_ps = wire::as_int64(f.value);
      if (f.number == 3) duration_ps = wire::as_int64(f.value);
    }
    if (st != wire::Status::kEnd) return error_json(std::string("malformed XEvent: ") + r.why);
  }
  std::vector<StatValue> stats;
  std::string why;
  const XPlaneTables::EventMeta* meta = plane.event_meta.find(metadata_id);
  if (meta && meta->stats_len &&
      !collect_stats(reinterpret_cast<const uint8_t*>(plane.stats.data()) + meta->stats_at,
                     meta->stats_len, 5, &stats, &why))
    return error_json(why);
  if (!collect_stats(p, bytes.size(), 4, &stats, &why)) return error_json(why);

  const StringTable& strings = s.strings;
  std::string o = "{\"name\":";
  json_append_string(&o, meta ? strings.get(meta->name) : std::string_view());
  if (meta && meta->display) {
    o += ",\"displayName\":";
    json_append_string(&o, strings.get(meta->display));
  }
  o += ",\"plane\":";
  json_append_string(&o, plane.name);
  o += ",\"line\":";
  json_append_string(&o, strings.get(s.tracks[track].name));
  o += ",\"offsetPs\":" + std::to_string(offset_ps);
  o += ",\"durationPs\":" + std::to_string(duration_ps);
  protocol::append_key(&o, protocol::keys::record::kArgs);
  o += '{';
  bool first = true;
  if (meta && meta->display) {  // XProf shows the full name when the event shows another
    o += "\"long_name\":";
    json_append_string(&o, strings.get(meta->name));
    first = false;
  }
  for (const StatValue& v : stats) {
    if (!first) o += ',';
    first = false;
    append_stat_member(&o, strings, plane, v);
  }
  o += '}';

  // The XLA op block: the same values, picked out for the pane, what the module's HloProto
  // adds where the file says nothing (GPU), and the graph-viewer seam.
  auto named = [&](std::string_view name) -> const StatValue* {
    for (const StatValue& v : stats) {
      const StrId* id = plane.stat_names.find(v.metadata_id);
      if (id && strings.get(*id) == name) return &v;
    }
    return nullptr;
  };
  auto text_of = [&](const StatValue* v) {
    return v ? stat_text(strings, plane, *v) : std::string_view();
  };
  const StatValue* hlo_op = named("hlo_op");
  const StatValue* module = named("hlo_module");
  const StatValue* program = named("program_id");
  const StatValue* category = named("hlo_category");
  const StatValue* long_name = named("long_name");
  const bool on_xla_ops = strings.get(s.tracks[track].name) == "XLA Ops";
  if (hlo_op || module || category || (program && program->is_integer()) || on_xla_ops) {
    namespace xla = protocol::keys::xla;
    protocol::append_key(&o, protocol::keys::record::kXla);
    o += '{';
    bool any = false;
    for (std::string_view k : kXlaStats) {
      const StatValue* v = named(k);
      if (!v) continue;
      if (any) o += ',';
      any = true;
      append_stat_member(&o, strings, plane, *v);
    }
    XlaOpNaming naming;
    naming.hlo_op = text_of(hlo_op);
    naming.metadata_name = meta ? strings.get(meta->name) : std::string_view();
    naming.long_name = text_of(long_name);
    if (naming.long_name.empty() && meta && meta->display)  // XProf's long name (args above)
      naming.long_name = strings.get(meta->name);
    naming.on_xla_ops_line = on_xla_ops;
    // A module's run names its program, not an instruction.
    const bool module_line = strings.get(s.tracks[track].name) == "XLA Modules";
    naming.has_program_or_module = !module_line && (module || (program && program->is_integer()));
    const std::string_view op = xla_hlo_instruction(naming);
    if (!op.empty()) {
      protocol::append_key(&o, xla::kInstruction, any ? ',' : '\0');
      json_append_string(&o, op);
      any = true;
    }
    // The program: its id stat, else the module named (GPU kernels of JAX name only that).
    int64_t program_id = 0;
    bool has_program = program && program->is_integer();
    if (has_program)
      program_id = program->as_int();
    else if (module)
      has_program = x->hlo_ops.program_of(text_of(module), &program_id);
    // Expression and category from the HloProto when the file gives neither.
    const HloOpText* from_hlo =
        has_program && !op.empty() ? x->hlo_ops.find(program_id, op) : nullptr;
    const bool hlo_expression = from_hlo && !long_name && !from_hlo->expression.empty();
    const bool hlo_category = from_hlo && !category && !from_hlo->category.empty();
    if (hlo_expression || hlo_category) {
      protocol::append_key(&o, xla::kFromHlo, any ? ',' : '\0');
      o += '{';
      if (hlo_expression) {
        protocol::append_key(&o, xla::kExpression, '\0');
        json_append_string(&o, from_hlo->expression);
      }
      if (hlo_category) {
        protocol::append_key(&o, xla::kCategory, hlo_expression ? ',' : '\0');
        json_append_string(&o, from_hlo->category);
      }
      o += '}';
      any = true;
    }
    if (has_program) {
      protocol::append_key(&o, xla::kGraph, any ? ',' : '\0');
      protocol::append_key(&o, xla::kProgramId, '{');
      append_program_id(&o, program_id);
      protocol::append_key(&o, xla::kOp);
      json_append_string(&o, op);
      protocol::append_key(&o, xla::kAvailable);
      o += x->has_hlo(program_id) ? "true" : "false";
      o += '}';
    }
    o += '}';
  }
  if (track < x->derived_track.size() && x->derived_track[track])
    o += ",\"derived\":\"Strata derived this row from the events' stats, as XProf does; the "
         "args are those of the first event it covers\"";
  o += '}';
  return o;
}

}  // namespace strata
