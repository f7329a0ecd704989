// The HloProto subset of proto/hlo.proto, walked with wire::Reader: no generated classes, so
// the engine's wasm does not link the protobuf runtime for it. Instructions refer to operands
// and called computations by id (module-wide); both are resolved once every computation has
// been read.
#include "core/formats/hlo/hlo_proto_parser.h"

#include <string_view>
#include <unordered_map>

#include "core/formats/protobuf/wire.h"

namespace strata::hlo {
namespace {

using wire::Field;
using wire::Reader;
using wire::Status;

void append_int_list(std::string* out, const std::vector<int64_t>& v) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) *out += ',';
    *out += std::to_string(v[i]);
  }
}

class ProtoParser {
 public:
  ProtoParser(const uint8_t* base, HloModule* m, std::string* error)
      : base_(base), m_(m), error_(error) {}

  bool module(const uint8_t* p, size_t n) {
    Reader r(p, n);
    Field f;
    Status st;
    std::string_view entry_name;
    int64_t entry_id = -1;
    bool has_entry_id = false;
    while ((st = r.next(&f)) == Status::kOk) {
      if (f.number == 1 && f.type == wire::kLen)
        m_->module_name = std::string(f.text());
      else if (f.number == 2 && f.type == wire::kLen)
        entry_name = f.text();
      else if (f.number == 3 && f.type == wire::kLen) {
        if (!computation(f.data, f.size)) return false;
      } else if (f.number == 6 && f.type == wire::kVarint) {
        entry_id = static_cast<int64_t>(f.value);
        has_entry_id = true;
      } else if (f.number == 17 && f.type == wire::kLen) {
        if (!stack_frame_index(f.data, f.size)) return false;
      }
    }
    if (st != Status::kEnd) return wire_error(r, "HloModuleProto");
    return resolve(entry_name, has_entry_id, entry_id);
  }

 private:
  bool wire_error(const Reader& r, const char* what) {
    *error_ = "byte " + std::to_string(r.field_start - base_) + ": " + r.why + " in an " + what;
    return false;
  }
  bool fail_at(const uint8_t* at, const std::string& why) {
    *error_ = "byte " + std::to_string(at - base_) + ": " + why;
    return false;
  }

  // StackFrameIndexProto: file_names (1), function_names (2), file_locations (3: file_name_id 1,
  // function_name_id 2, line 3, column 4, end_line 5, end_column 6), stack_frames (4:
  // file_location_id 1, parent_frame_id 2). Every id is 1-based, 0 meaning none.
  bool stack_frame_index(const uint8_t* p, size_t n) {
    HloModule& m = *m_;
    auto index = [](uint64_t id) {
      return id > 0 && id <= UINT32_MAX ? static_cast<uint32_t>(id - 1) : kNone;
    };
    Reader r(p, n);
    Field f;
    Status st;
    while ((st = r.next(&f)) == Status::kOk) {
      if (f.type != wire::kLen) continue;
      if (f.number == 1 || f.number == 2) {
        (f.number == 1 ? m.file_names : m.function_names).push_back(m.strings.intern(f.text()));
        continue;
      }
      if (f.number != 3 && f.number != 4) continue;
      uint64_t v[7] = {};
      Reader e(f.data, f.size);
      Field g;
      Status est;
      while ((est = e.next(&g)) == Status::kOk)
        if (g.type == wire::kVarint && g.number >= 1 && g.number <= 6) v[g.number] = g.value;
      if (est != Status::kEnd) return wire_error(e, "StackFrameIndexProto");
      if (f.number == 3) {
        m.location_file.push_back(index(v[1]));
        m.location_function.push_back(index(v[2]));
        m.location_line.push_back(static_cast<int32_t>(v[3]));
        m.location_column.push_back(static_cast<int32_t>(v[4]));
        m.location_end_line.push_back(static_cast<int32_t>(v[5]));
        m.location_end_column.push_back(static_cast<int32_t>(v[6]));
      } else {
        m.frame_location.push_back(index(v[1]));
        m.frame_parent.push_back(index(v[2]));
      }
    }
    if (st != Status::kEnd) return wire_error(r, "StackFrameIndexProto");
    return true;
  }

  bool computation(const uint8_t* p, size_t n) {
    HloModule& m = *m_;
    const uint32_t c = static_cast<uint32_t>(m.comp_name.size());
    m.comp_name.push_back(0);
    m.comp_is_fusion.push_back(0);
    m.comp_first.push_back(m.instruction_count());
    m.comp_count.push_back(0);
    m.comp_root.push_back(kNone);
    comp_id_.push_back(-1);
    comp_root_id_.push_back(-1);
    comp_has_root_.push_back(0);
    Reader r(p, n);
    Field f;
    Status st;
    while ((st = r.next(&f)) == Status::kOk) {
      switch (f.number) {
        case 1:
          if (f.type == wire::kLen) m.comp_name[c] = m.strings.intern(f.text());
          break;
        case 2:
          if (f.type == wire::kLen && !instruction(c, f.data, f.size)) return false;
          break;
        case 5:
          if (f.type == wire::kVarint) comp_id_[c] = static_cast<int64_t>(f.value);
          break;
        case 6:
          if (f.type == wire::kVarint) {
            comp_root_id_[c] = static_cast<int64_t>(f.value);
            comp_has_root_[c] = 1;
          }
          break;
        case 7:
          if (f.type == wire::kVarint) m.comp_is_fusion[c] = f.value != 0;
          break;
        default:
          break;
      }
    }
    if (st != Status::kEnd) return wire_error(r, "HloComputationProto");
    m.comp_count[c] = m.instruction_count() - m.comp_first[c];
    return true;
  }

  bool instruction(uint32_t c, const uint8_t* p, size_t n) {
    HloModule& m = *m_;
    Reader r(p, n);
    Field f;
    Status st;
    std::string_view name, opcode, fusion_kind, target, config;
    const uint8_t* shape = nullptr;
    size_t shape_len = 0;
    int64_t id = -1, param = 0, tuple_index = -1;
    StrId op_type = 0, op_name = 0, source_file = 0;
    int32_t source_line = 0;
    uint32_t frame = kNone;
    dims_.clear();
    while ((st = r.next(&f)) == Status::kOk) {
      const bool len = f.type == wire::kLen, var = f.type == wire::kVarint;
      switch (f.number) {
        case 1:
          if (len) name = f.text();
          break;
        case 2:
          if (len) opcode = f.text();
          break;
        case 3:
          if (len) shape = f.data, shape_len = f.size;
          break;
        case 7:
          if (len && !metadata(f, &op_type, &op_name, &source_file, &source_line, &frame))
            return false;
          break;
        case 9:
          if (var) param = static_cast<int64_t>(f.value);
          break;
        case 11:
          if (len) fusion_kind = f.text();
          break;
        case 13:
          if (var) tuple_index = static_cast<int64_t>(f.value);
          break;
        case 14:
          if (!wire::read_ints(f, &dims_)) return fail_at(r.field_start, "bad dimensions list");
          break;
        case 28:
          if (len) target = f.text();
          break;
        case 35:
          if (var) id = static_cast<int64_t>(f.value);
          break;
        case 36:
          if (!wire::read_ints(f, &pending_operands_))
            return fail_at(r.field_start, "bad operand_ids");
          break;
        case 38:
          if (!wire::read_ints(f, &pending_called_))
            return fail_at(r.field_start, "bad called_computation_ids");
          break;
        case 43:
          if (len) config = f.text();
          break;
        default:
          break;
      }
    }
    if (st != Status::kEnd) return wire_error(r, "HloInstructionProto");
    const uint32_t index = m.instruction_count();
    if (id >= 0 && !instr_by_id_.emplace(id, index).second)
      return fail_at(p, "instruction id " + std::to_string(id) + " used twice");
    m.name.push_back(m.strings.intern(name));
    m.opcode.push_back(m.strings.intern(opcode));
    text_.clear();
    ParsedShape ps;
    if (shape && !render_shape(shape, shape_len, &text_, &ps, 0))
      return fail_at(shape, "malformed ShapeProto of '" + std::string(name) + "'");
    m.shape.push_back(m.strings.intern(text_));
    m.dtype.push_back(ps.dtype);
    m.dims.insert(m.dims.end(), ps.dims.begin(), ps.dims.end());
    m.dims_begin.push_back(static_cast<uint32_t>(m.dims.size()));
    m.layout.push_back(layout_.empty() ? 0 : m.strings.intern(layout_));
    m.memory_space.push_back(ps.memory_space);
    m.computation.push_back(c);
    m.parameter_number.push_back(opcode == "parameter" ? static_cast<int32_t>(param) : -1);
    m.fusion_kind.push_back(fusion_kind.empty() ? 0 : m.strings.intern(fusion_kind));
    m.op_type.push_back(op_type);
    m.op_name.push_back(op_name);
    m.source_file.push_back(source_file);
    m.source_line.push_back(source_line);
    m.stack_frame.push_back(frame);
    m.custom_call_target.push_back(target.empty() ? 0 : m.strings.intern(target));
    m.backend_config.push_back(config.empty() ? 0 : m.strings.intern(config));
    text_.clear();
    if (!dims_.empty()) {
      text_ = "dimensions={";
      append_int_list(&text_, dims_);
      text_ += '}';
    }
    if (tuple_index >= 0)
      text_ += (text_.empty() ? "index=" : ", index=") + std::to_string(tuple_index);
    m.attrs.push_back(text_.empty() ? 0 : m.strings.intern(text_));
    operand_ends_.push_back(static_cast<uint32_t>(pending_operands_.size()));
    called_ends_.push_back(static_cast<uint32_t>(pending_called_.size()));
    return true;
  }

  // OpMetadata: op_type (1), op_name (2), source_file (3), source_line (4), stack_frame_id (15,
  // 1-based).
  bool metadata(const Field& mf, StrId* op_type, StrId* op_name, StrId* source_file,
                int32_t* source_line, uint32_t* frame) {
    Reader r(mf.data, mf.size);
    Field f;
    Status st;
    while ((st = r.next(&f)) == Status::kOk) {
      if (f.type == wire::kLen && f.number >= 1 && f.number <= 3) {
        StrId s = m_->strings.intern(f.text());
        *(f.number == 1 ? op_type : f.number == 2 ? op_name : source_file) = s;
      } else if (f.number == 4 && f.type == wire::kVarint) {
        *source_line = static_cast<int32_t>(f.value);
      } else if (f.number == 15 && f.type == wire::kVarint) {
        const int32_t id = static_cast<int32_t>(f.value);
        *frame = id > 0 ? static_cast<uint32_t>(id - 1) : kNone;
      }
    }
    if (st != Status::kEnd) return wire_error(r, "OpMetadata");
    return true;
  }

  // ShapeProto → the text XLA prints: "bf16[8,128]{1,0:T(8,128)S(1)}", "(f32[2]{0}, s32[])".
  // The top-level shape's parts also go to `ps` and layout_.
  bool render_shape(const uint8_t* p, size_t n, std::string* out, ParsedShape* ps, int depth) {
    if (depth > 64) return false;
    Reader r(p, n);
    Field f;
    Status st;
    uint64_t type = 0;
    std::vector<int64_t> dims, dynamic;
    const uint8_t* layout = nullptr;
    size_t layout_len = 0;
    std::vector<std::pair<const uint8_t*, size_t>> tuple;
    while ((st = r.next(&f)) == Status::kOk) {
      if (f.number == 2 && f.type == wire::kVarint)
        type = f.value;
      else if (f.number == 3 && !wire::read_ints(f, &dims))
        return false;
      else if (f.number == 4 && f.type == wire::kLen)
        tuple.emplace_back(f.data, f.size);
      else if (f.number == 5 && f.type == wire::kLen)
        layout = f.data, layout_len = f.size;
      else if (f.number == 6 && !wire::read_ints(f, &dynamic))
        return false;
    }
    if (st != Status::kEnd) return false;
    if (depth == 0) {
      *ps = ParsedShape{};
      ps->dtype = static_cast<uint8_t>(type <= 255 ? type : 0);
      layout_.clear();
    }
    if (type == kTuple) {
      *out += '(';
      for (size_t i = 0; i < tuple.size(); ++i) {
        if (i) *out += ", ";
        if (!render_shape(tuple[i].first, tuple[i].second, out, ps, depth + 1)) return false;
      }
      *out += ')';
      return true;
    }
    *out += primitive_type_name(static_cast<uint8_t>(type <= 255 ? type : 0));
    *out += '[';
    for (size_t i = 0; i < dims.size(); ++i) {
      if (i) *out += ',';
      if (i < dynamic.size() && dynamic[i]) *out += "<=";
      *out += std::to_string(dims[i]);
    }
    *out += ']';
    std::string lay;
    int64_t space = 0;
    if (layout && !dims.empty() && !render_layout(layout, layout_len, &lay, &space)) return false;
    *out += lay;
    if (depth == 0) {
      ps->dims = dims;
      layout_ = lay;
      ps->memory_space = lay.empty() ? kNoMemorySpace : static_cast<int32_t>(space);
    }
    return true;
  }

  // LayoutProto: minor_to_major (1), tiles (6: TileProto dimensions (1)), element_size_in_bits
  // (7), memory_space (8) → "{1,0:T(8,128)(2,1)E(4)S(1)}", in XLA's order.
  bool render_layout(const uint8_t* p, size_t n, std::string* out, int64_t* space) {
    Reader r(p, n);
    Field f;
    Status st;
    std::vector<int64_t> m2m;
    std::vector<std::vector<int64_t>> tiles;
    int64_t element_bits = 0;
    while ((st = r.next(&f)) == Status::kOk) {
      if (f.number == 1) {
        if (!wire::read_ints(f, &m2m)) return false;
      } else if (f.number == 6 && f.type == wire::kLen) {
        tiles.emplace_back();
        Reader t(f.data, f.size);
        Field tf;
        Status ts;
        while ((ts = t.next(&tf)) == Status::kOk)
          if (tf.number == 1 && !wire::read_ints(tf, &tiles.back())) return false;
        if (ts != Status::kEnd) return false;
      } else if (f.number == 7 && f.type == wire::kVarint) {
        element_bits = static_cast<int64_t>(f.value);
      } else if (f.number == 8 && f.type == wire::kVarint) {
        *space = static_cast<int64_t>(f.value);
      }
    }
    if (st != Status::kEnd) return false;
    *out += '{';
    append_int_list(out, m2m);
    if (!tiles.empty() || element_bits || *space) {
      *out += ':';
      if (!tiles.empty()) {
        *out += 'T';
        for (const auto& t : tiles) {
          *out += '(';
          append_int_list(out, t);
          *out += ')';
        }
      }
      if (element_bits) *out += "E(" + std::to_string(element_bits) + ")";
      if (*space) *out += "S(" + std::to_string(*space) + ")";
    }
    *out += '}';
    return true;
  }

  bool resolve(std::string_view entry_name, bool has_entry_id, int64_t entry_id) {
    HloModule& m = *m_;
    const uint32_t n = m.instruction_count(), nc = m.computation_count();
    std::unordered_map<int64_t, uint32_t> comp_by_id;
    for (uint32_t c = 0; c < nc; ++c)
      if (comp_id_[c] >= 0) comp_by_id.emplace(comp_id_[c], c);
    m.dims_begin.insert(m.dims_begin.begin(), 0);
    m.operand_begin.assign(1, 0);
    m.called_begin.assign(1, 0);
    const StrId fusion = m.strings.find("fusion");
    for (uint32_t i = 0, ko = 0, kc = 0; i < n; ++i) {
      for (; ko < operand_ends_[i]; ++ko) {
        auto it = instr_by_id_.find(pending_operands_[ko]);
        if (it == instr_by_id_.end()) return fail_id("operand id", pending_operands_[ko], i);
        m.operands.push_back(it->second);
      }
      m.operand_begin.push_back(static_cast<uint32_t>(m.operands.size()));
      for (; kc < called_ends_[i]; ++kc) {
        auto it = comp_by_id.find(pending_called_[kc]);
        if (it == comp_by_id.end()) return fail_id("called computation id", pending_called_[kc], i);
        m.called.push_back(it->second);
        if (m.opcode[i] == fusion) m.comp_is_fusion[it->second] = 1;
      }
      m.called_begin.push_back(static_cast<uint32_t>(m.called.size()));
    }
    for (uint32_t c = 0; c < nc; ++c) {
      if (m.comp_count[c] == 0) continue;
      if (comp_has_root_[c]) {
        auto it = instr_by_id_.find(comp_root_id_[c]);
        if (it != instr_by_id_.end() && m.computation[it->second] == c) m.comp_root[c] = it->second;
      }
      // No (valid) root id: XLA's last instruction.
      if (m.comp_root[c] == kNone) m.comp_root[c] = m.comp_first[c] + m.comp_count[c] - 1;
    }
    if (has_entry_id) {
      auto it = comp_by_id.find(entry_id);
      if (it != comp_by_id.end()) m.entry = it->second;
    }
    if (m.entry == kNone && !entry_name.empty())
      for (uint32_t c = 0; c < nc; ++c)
        if (m.str(m.comp_name[c]) == entry_name) m.entry = c;
    // Computations come callees first, so the entry is the last one when nothing says otherwise.
    if (m.entry == kNone && nc) m.entry = nc - 1;
    std::string why;
    if (!finish_module(&m, &why)) {
      *error_ = why;
      return false;
    }
    m.by_proto_id = std::move(instr_by_id_);
    return true;
  }

  bool fail_id(const char* what, int64_t id, uint32_t i) {
    *error_ = std::string(what) + " " + std::to_string(id) + " of '" +
              std::string(m_->str(m_->name[i])) + "' is not in the module";
    return false;
  }

  const uint8_t* base_;
  HloModule* m_;
  std::string* error_;
  std::vector<int64_t> comp_id_, comp_root_id_;
  std::vector<uint8_t> comp_has_root_;
  std::unordered_map<int64_t, uint32_t> instr_by_id_;
  std::vector<int64_t> pending_operands_, pending_called_, dims_;
  std::vector<uint32_t> operand_ends_, called_ends_;
  std::string text_, layout_;
};

// True when every top-level field of [p, p+n) parses and uses only `allowed` numbers; the
// first field 1 and the last field 3 are returned. Bytes cut short after a whole field 1 still
// count (*cut set): a truncated buffer assignment leaves the module readable.
bool only_fields(const uint8_t* p, size_t n, std::initializer_list<uint32_t> allowed,
                 const uint8_t** field1, size_t* field1_len, Field* field3, bool* cut) {
  Reader r(p, n);
  Field f;
  Status st;
  bool has1 = false;
  while ((st = r.next(&f)) == Status::kOk) {
    bool ok = false;
    for (uint32_t a : allowed) ok |= f.number == a;
    if (!ok || f.type != wire::kLen) return false;
    if (f.number == 1 && !has1) {
      *field1 = f.data, *field1_len = f.size;
      has1 = true;
    }
    if (f.number == 3) *field3 = f;
  }
  *cut = st != Status::kEnd && has1;
  return (st == Status::kEnd || *cut) && has1;
}

}  // namespace

bool parse_hlo_proto(const uint8_t* data, size_t size, HloModule* out, std::string* error) {
  *out = HloModule{};
  if (size == 0) {
    *error = "empty HloProto";
    return false;
  }
  // HloProto has only hlo_module (1) and buffer_assignment (3), both messages; an
  // HloModuleProto's name (1) is a string, and it nearly always has other fields too.
  const uint8_t* inner = nullptr;
  size_t inner_len = 0;
  Field assignment;
  bool cut = false;
  if (only_fields(data, size, {1, 3}, &inner, &inner_len, &assignment, &cut)) {
    HloModule m;
    std::string why;
    ProtoParser p(data, &m, &why);
    if (p.module(inner, inner_len) && m.computation_count() > 0) {
      if (assignment.data)
        m.buffer_assignment.assign(assignment.data, assignment.data + assignment.size);
      if (cut) {
        m.buffer_assignment.clear();
        m.buffer_assignment_note =
            "the HloProto is cut short after its module, in its buffer "
            "assignment";
      }
      *out = std::move(m);
      return true;
    }
  }
  ProtoParser p(data, out, error);
  if (!p.module(data, size)) return false;
  if (out->computation_count() == 0) {
    *error = "no computations: not an HloProto";
    return false;
  }
  return true;
}

}  // namespace strata::hlo
