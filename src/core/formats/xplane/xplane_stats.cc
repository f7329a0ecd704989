#include "core/formats/xplane/xplane_stats.h"

#include "core/base/json_writer.h"
#include "core/formats/protobuf/wire.h"
#include "core/formats/xplane/program_id.h"

namespace strata {

double StatValue::as_number() const {
  switch (kind) {
    case kDouble:
      return wire::as_double(bits);
    case kUint:
      return static_cast<double>(bits);
    case kInt:
      return static_cast<double>(static_cast<int64_t>(bits));
    default:
      return 0;
  }
}

std::string_view stat_text(const StringTable& strings, const XPlaneTables& plane,
                           const StatValue& v) {
  if (v.kind == StatValue::kStr) return v.s;
  if (v.kind == StatValue::kRef) {
    const StrId* id = plane.stat_names.find(static_cast<int64_t>(v.bits));
    return id ? strings.get(*id) : std::string_view();
  }
  return {};
}

StatRole stat_role(std::string_view name) {
  static const std::pair<std::string_view, StatRole> kRoles[] = {
      {"flow", StatRole::kFlow},
      {"correlation_id", StatRole::kCorrelationId},
      {"step_name", StatRole::kStepName},
      {"group_id", StatRole::kGroupId},
      {"hlo_op", StatRole::kHloOp},
      {"hlo_module", StatRole::kHloModule},
      {"program_id", StatRole::kProgramId},
      {"kernel_details", StatRole::kKernelDetails},
      {"memcpy_details", StatRole::kMemcpyDetails},
      {"tf_op", StatRole::kTfOp},
      {"source", StatRole::kSource},
      {"source_info", StatRole::kSource},
      {"is_async", StatRole::kIsAsync},
      {"Hlo Proto", StatRole::kHloProto},
  };
  for (const auto& [n, r] : kRoles)
    if (n == name) return r;
  return StatRole::kOther;
}

namespace {

constexpr uint64_t kExactInJs = uint64_t{1} << 53;

void append_u64(std::string* out, uint64_t v) {
  if (v <= kExactInJs)
    out->append(std::to_string(v));
  else
    json_append_string(out, std::to_string(v));
}

void append_i64(std::string* out, int64_t v) {
  uint64_t mag = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  if (mag <= kExactInJs)
    out->append(std::to_string(v));
  else
    json_append_string(out, std::to_string(v));
}

}  // namespace

void append_stat_member(std::string* out, const StringTable& strings, const XPlaneTables& plane,
                        const StatValue& v) {
  const StrId* name_id = plane.stat_names.find(v.metadata_id);
  std::string_view name = name_id ? strings.get(*name_id) : std::string_view();
  if (name.empty())
    json_append_string(out, "stat #" + std::to_string(v.metadata_id));
  else
    json_append_string(out, name);
  out->push_back(':');
  if (name == "flow" && v.is_integer()) {
    XFlow f = XFlow::decode(v.bits);
    static const char* const kDir[] = {"unspecified", "in", "out", "in-out"};
    out->append("{\"id\":");
    append_u64(out, f.id);
    out->append(",\"direction\":");
    json_append_string(out, kDir[f.direction & 3]);
    out->append(",\"category\":");
    json_append_string(out, flow_category_name(f.category));
    out->push_back('}');
    return;
  }
  if (name == "program_id" && v.is_integer()) {  // a uint64, however the stat was typed
    append_program_id(out, v.as_int());
    return;
  }
  switch (v.kind) {
    case StatValue::kDouble:
      json_append_number(out, v.as_number());
      break;
    case StatValue::kUint:
      append_u64(out, v.bits);
      break;
    case StatValue::kInt:
      append_i64(out, v.as_int());
      break;
    case StatValue::kStr:
      if (is_valid_utf8(v.s))
        json_append_string(out, v.s);
      else
        json_append_string(out, sanitize_utf8(v.s));
      break;
    case StatValue::kRef: {
      const StrId* id = plane.stat_names.find(static_cast<int64_t>(v.bits));
      if (id)
        json_append_string(out, strings.get(*id));
      else
        json_append_string(out, "(missing stat metadata #" + std::to_string(v.bits) + ")");
      break;
    }
    case StatValue::kBytes: {  // shown as its size (GCC 12 warns on "<" + to_string(...))
      std::string size = std::to_string(v.bits);
      size.insert(size.begin(), '<');
      size += " bytes>";
      json_append_string(out, size);
      break;
    }
    case StatValue::kUnset:
      out->append("null");
      break;
  }
}

void append_stat_field(std::string* out, const uint8_t* p, size_t n, const StatValue& v,
                       size_t keep_bytes) {
  out->push_back(static_cast<char>(5 << 3 | wire::kLen));
  if (v.kind == StatValue::kBytes && v.bits > keep_bytes) {
    std::string stat;
    stat.push_back(static_cast<char>(1 << 3 | wire::kVarint));
    wire::append_varint(&stat, static_cast<uint64_t>(v.metadata_id));
    stat.push_back(static_cast<char>(kBytesSizeField << 3 | wire::kVarint));
    wire::append_varint(&stat, v.bits);
    wire::append_varint(out, stat.size());
    out->append(stat);
    return;
  }
  wire::append_varint(out, n);
  out->append(reinterpret_cast<const char*>(p), n);
}

const char* flow_category_name(int category) {
  // tsl/profiler/lib/context_types: names as XProf prints them; generic ones are plain flows.
  static const char* const kNames[] = {"flow",
                                       "flow",
                                       "tf_exec",
                                       "tfrt_exec",
                                       "batch_sched",
                                       "PjRt",
                                       "as_batch_sched",
                                       "tfrt_rt",
                                       "tpu_embed",
                                       "gpu_launch",
                                       "batcher",
                                       "tpu_stream",
                                       "tpu_launch",
                                       "pathways_exec",
                                       "pjrt_library_call",
                                       "threadpool_event",
                                       "jax_serving_exec"};
  if (category < 0 || category >= static_cast<int>(sizeof(kNames) / sizeof(kNames[0])))
    return "flow";
  return kNames[category];
}

}  // namespace strata
