// One pass over the text with a bracket-aware scanner: a statement (the module header, an
// instruction) ends at a newline outside brackets and strings, so literals or attributes that
// XLA prints over several lines, strings holding braces or commas (backend_config) and
// `/*index=5*/` comments never cut a statement. Operand and computation names are resolved when
// the module ends (XLA prints callees first, but nothing here relies on it).
#include "core/formats/hlo/hlo_text_parser.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "core/base/text.h"
#include "core/formats/hlo/hlo_text_sections.h"

namespace strata::hlo {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-' || c == '%' || c == '$';
}

// Blanks and line ends: an instruction's text may span lines.
constexpr std::string_view kSpaceAndNewline = " \t\r\n";

std::string_view strip_percent(std::string_view s) {
  if (!s.empty() && s.front() == '%') s.remove_prefix(1);
  return s;
}

// The text of a quoted string, unescaped into `buf` only when it holds a backslash.
std::string_view unquote(std::string_view s, std::string* buf) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  if (s.find('\\') == std::string_view::npos) return s;
  std::string& out = *buf;
  out.clear();
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char n = s[++i];
      out += n == 'n' ? '\n' : n == 't' ? '\t' : n;
    } else {
      out += s[i];
    }
  }
  return out;
}

// Attributes whose values name called computations, in the order XLA prints them.
bool is_computation_attr(std::string_view key) {
  return key == "calls" || key == "to_apply" || key == "condition" || key == "body" ||
         key == "true_computation" || key == "false_computation" || key == "branch_computations" ||
         key == "called_computations" || key == "select" || key == "scatter" ||
         key == "async_computation" || key == "comparator";
}

class TextParser {
 public:
  TextParser(std::string_view text, std::vector<HloModule>* out, std::string* error)
      : s_(text), out_(out), error_(error) {}

  bool incomplete() const { return m_ != nullptr; }

  // After a failure inside a module: keeps what was read before the failure (the computations
  // closed, the open one up to its last instruction whose operands are all defined) as a whole
  // module, with the error in `note`. False when nothing worth opening was read.
  bool salvage() {
    HloModule& m = *m_;
    uint32_t n = complete_instrs_;
    if (m.comp_name.size() > closed_comps_) {
      const uint32_t c = closed_comps_, first = m.comp_first[c];
      m.operand_begin.resize(first + 1);
      m.operands.resize(m.operand_begin.back());
      std::unordered_map<std::string_view, uint32_t> defined;
      uint32_t end = first;
      for (; end < n; ++end) {
        bool resolved = defined.emplace(m.str(m.name[end]), end).second;
        for (uint32_t k = operand_ends_[end]; resolved && k < operand_ends_[end + 1]; ++k) {
          auto it = defined.find(pending_operands_[k]);
          resolved = it != defined.end() && it->second < end;
          if (resolved) m.operands.push_back(it->second);
        }
        if (!resolved) {
          m.operands.resize(m.operand_begin.back());
          break;
        }
        m.operand_begin.push_back(static_cast<uint32_t>(m.operands.size()));
      }
      n = end;
      if (n == first) {
        for (auto* v : {&m.comp_first, &m.comp_count, &m.comp_root}) v->resize(c);
        m.comp_name.resize(c);
        m.comp_is_fusion.resize(c);
      } else {
        m.comp_count[c] = n - first;
        if (m.comp_root[c] == kNone || m.comp_root[c] >= n) m.comp_root[c] = n - 1;
      }
    }
    if (m.comp_name.empty()) return false;
    for (auto* v : {&m.name, &m.opcode, &m.shape, &m.layout, &m.fusion_kind, &m.op_type, &m.op_name,
                    &m.source_file, &m.custom_call_target, &m.backend_config, &m.attrs})
      v->resize(n);
    for (auto* v : {&m.computation, &m.stack_frame}) v->resize(n);
    m.dtype.resize(n);
    m.memory_space.resize(n);
    m.parameter_number.resize(n);
    m.source_line.resize(n);
    m.dims_begin.resize(n + 1);
    m.dims.resize(m.dims_begin.back());
    called_ends_.resize(n + 1);
    std::unordered_map<std::string_view, uint32_t> comps;
    for (uint32_t c = 0; c < m.comp_name.size(); ++c) comps.emplace(m.str(m.comp_name[c]), c);
    m.called.clear();
    m.called_begin.assign(1, 0);
    const StrId fusion = m.strings.find("fusion");
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t k = called_ends_[i]; k < called_ends_[i + 1]; ++k) {
        auto it = comps.find(pending_called_[k]);
        if (it == comps.end()) continue;  // not read (yet): the call has no callee
        m.called.push_back(it->second);
        if (m.opcode[i] == fusion) m.comp_is_fusion[it->second] = 1;
      }
      m.called_begin.push_back(static_cast<uint32_t>(m.called.size()));
    }
    if (m.entry >= m.comp_name.size()) m.entry = static_cast<uint32_t>(m.comp_name.size() - 1);
    std::string why;
    if (!finish_module(&m, &why)) return false;
    m.note = *error_ + ". Shown: what was read before it (" + std::to_string(m.comp_name.size()) +
             (m.comp_name.size() == 1 ? " computation, " : " computations, ") + std::to_string(n) +
             (n == 1 ? " instruction)" : " instructions)");
    *error_ = m.note;
    m_ = nullptr;
    return true;
  }

  bool run() {
    for (;;) {
      skip_blank();
      if (pos_ >= s_.size()) break;
      if (starts("HloModule") && (pos_ + 9 >= s_.size() || !is_name_char(s_[pos_ + 9]))) {
        if (!end_module()) return false;
        if (!module_header()) return false;
        if (!sections()) return false;
        continue;
      }
      if (!m_) return fail(pos_, "expected 'HloModule' before the first computation");
      if (!computation()) return false;
    }
    if (!m_) return fail(pos_, "no 'HloModule' in the text");
    return end_module();
  }

 private:
  bool starts(std::string_view w) const { return s_.substr(pos_, w.size()) == w; }

  uint32_t line_of(size_t at) const {
    at = std::min(at, s_.size());
    return 1 + static_cast<uint32_t>(std::count(s_.begin(), s_.begin() + at, '\n'));
  }
  bool fail(size_t at, const std::string& why) {
    *error_ = "line " + std::to_string(line_of(at)) + ": " + why;
    return false;
  }

  // Blank lines, `//` comments and `/* */` comments.
  void skip_blank() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (is_space(c) || c == '\n') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
        size_t nl = s_.find('\n', pos_);
        pos_ = nl == std::string_view::npos ? s_.size() : nl + 1;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
        size_t e = s_.find("*/", pos_ + 2);
        pos_ = e == std::string_view::npos ? s_.size() : e + 2;
      } else {
        break;
      }
    }
  }
  void skip_spaces() {
    while (pos_ < s_.size() && is_space(s_[pos_])) ++pos_;
  }

  // From `at`, the first position at bracket depth 0 (outside strings and comments) holding one
  // of `stops`, an unmatched closing bracket, or (when `newline`) a newline; s_.size() at the
  // end. `*unterminated` is set when a string or comment runs to the end.
  size_t scan(size_t at, std::string_view stops, bool newline, bool* unterminated) const {
    int depth = 0;
    while (at < s_.size()) {
      const char c = s_[at];
      if (c == '"') {
        ++at;
        while (at < s_.size() && s_[at] != '"') at += s_[at] == '\\' ? 2 : 1;
        if (at >= s_.size()) {
          *unterminated = true;
          return s_.size();
        }
        ++at;
        continue;
      }
      if (c == '/' && at + 1 < s_.size() && s_[at + 1] == '*') {
        size_t e = s_.find("*/", at + 2);
        if (e == std::string_view::npos) {
          *unterminated = true;
          return s_.size();
        }
        at = e + 2;
        continue;
      }
      if (depth == 0 && ((newline && c == '\n') || stops.find(c) != std::string_view::npos))
        return at;
      if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        if (depth == 0) return at;
        --depth;
      }
      ++at;
    }
    return at;
  }

  bool module_header() {
    const size_t start = pos_;
    pos_ += 9;
    skip_spaces();
    size_t b = pos_;
    while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
    if (pos_ == b) return fail(start, "expected the module name after 'HloModule'");
    out_->emplace_back();
    m_ = &out_->back();
    m_->operand_begin.assign(1, 0);
    m_->dims_begin.assign(1, 0);
    operand_ends_.assign(1, 0);
    called_ends_.assign(1, 0);
    m_->module_name = std::string(strip_percent(s_.substr(b, pos_ - b)));
    bool unterminated = false;
    pos_ = scan(pos_, "", true, &unterminated);  // the module's attributes are not needed
    if (unterminated) return fail(start, "unterminated string or comment in the module header");
    return true;
  }

  // XLA's FileNames, FunctionNames, FileLocations and StackFrames, between the header and the
  // first computation.
  bool sections() {
    skip_blank();
    if (!at_stack_frame_section(s_, pos_)) return true;
    size_t fail_at = pos_;
    std::string why;
    if (!parse_stack_frame_sections(s_, &pos_, m_, &fail_at, &why)) return fail(fail_at, why);
    return true;
  }

  bool computation() {
    const size_t start = pos_;
    size_t nl = s_.find('\n', pos_);
    std::string_view line =
        trim(s_.substr(pos_, nl == std::string_view::npos ? s_.size() - pos_ : nl - pos_),
             kSpaceAndNewline);
    if (line.empty() || line.back() != '{')
      return fail(start, "expected a computation ('name (params) -> shape {' or 'ENTRY ...{')");
    bool entry = false;
    if (line.starts_with("ENTRY") && line.size() > 5 && !is_name_char(line[5])) {
      entry = true;
      line = trim(line.substr(5), kSpaceAndNewline);
    }
    size_t k = 0;
    while (k < line.size() && is_name_char(line[k])) ++k;
    std::string_view name = strip_percent(line.substr(0, k));
    if (name.empty()) return fail(start, "expected a computation name");
    const uint32_t c = static_cast<uint32_t>(m_->comp_name.size());
    m_->comp_name.push_back(m_->strings.intern(name));
    m_->comp_is_fusion.push_back(0);
    m_->comp_first.push_back(static_cast<uint32_t>(m_->name.size()));
    m_->comp_count.push_back(0);
    m_->comp_root.push_back(kNone);
    comp_line_.push_back(start);
    if (m_->name.empty()) reserve_columns();
    if (entry) {
      if (m_->entry != kNone) return fail(start, "a second ENTRY computation");
      m_->entry = c;
    }
    pos_ = nl == std::string_view::npos ? s_.size() : nl + 1;
    uint32_t last = kNone;
    for (;;) {
      skip_blank();
      if (pos_ >= s_.size())
        return fail(pos_, "computation '" + std::string(name) + "' (from line " +
                              std::to_string(line_of(start)) +
                              ") is not closed by '}': the text ends here");
      if (s_[pos_] == '}') {
        ++pos_;
        break;
      }
      bool root = false;
      if (!instruction(c, &root)) return false;
      last = static_cast<uint32_t>(m_->name.size() - 1);
      if (root) {
        if (m_->comp_root[c] != kNone)
          return fail(instr_pos_.back(),
                      "a second ROOT in computation '" + std::string(name) + "'");
        m_->comp_root[c] = last;
      }
    }
    m_->comp_count[c] = static_cast<uint32_t>(m_->name.size()) - m_->comp_first[c];
    // XLA: without a ROOT mark the last instruction is the root.
    if (m_->comp_root[c] == kNone) m_->comp_root[c] = last;
    if (!resolve_operands(c)) return false;
    closed_comps_ = c + 1;
    return true;
  }

  // Operand names refer to instructions of the same computation (XLA scopes names per
  // computation; hand-written modules reuse `a`, `b` in every computation).
  bool resolve_operands(uint32_t c) {
    HloModule& m = *m_;
    const uint32_t first = m.comp_first[c], end = first + m.comp_count[c];
    for (uint32_t i = first; i < end; ++i) {
      const StrId id = m.name[i];
      if (id >= def_.size()) def_.resize(m.strings.size(), kNone);
      if (def_[id] != kNone && def_[id] >= first)
        return fail(instr_pos_[i], "instruction name '" + std::string(m.str(id)) +
                                       "' defined twice in computation '" +
                                       std::string(m.str(m.comp_name[c])) + "'");
      def_[id] = i;
    }
    for (uint32_t i = first; i < end; ++i) {
      for (uint32_t k = operand_ends_[i]; k < operand_ends_[i + 1]; ++k) {
        const StrId id = m.strings.find(pending_operands_[k]);
        const uint32_t d = id == kNone || id >= def_.size() ? kNone : def_[id];
        if (d == kNone || d < first)
          return fail(instr_pos_[i], "operand '" + std::string(pending_operands_[k]) + "' of '" +
                                         std::string(m.str(m.name[i])) +
                                         "' is not defined in computation '" +
                                         std::string(m.str(m.comp_name[c])) + "'");
        m.operands.push_back(d);
      }
      m.operand_begin.push_back(static_cast<uint32_t>(m.operands.size()));
    }
    return true;
  }

  // Columns sized for an instruction per line, so a big module grows no vector.
  void reserve_columns() {
    HloModule& m = *m_;
    size_t lines = static_cast<size_t>(std::count(s_.begin() + pos_, s_.end(), '\n')) + 1;
    for (auto* v : {&m.name, &m.opcode, &m.shape, &m.layout, &m.fusion_kind, &m.op_type, &m.op_name,
                    &m.source_file, &m.custom_call_target, &m.backend_config, &m.attrs})
      v->reserve(lines);
    for (auto* v : {&m.dims_begin, &m.computation, &m.operand_begin, &m.called_begin})
      v->reserve(lines + 1);
    m.stack_frame.reserve(lines);
    m.dtype.reserve(lines);
    m.memory_space.reserve(lines);
    m.parameter_number.reserve(lines);
    m.source_line.reserve(lines);
    instr_pos_.reserve(lines);
    operand_ends_.reserve(lines + 1);
    called_ends_.reserve(lines + 1);
  }

  // `[ROOT] [%]name = shape opcode(operands)[, attr=value]*`
  bool instruction(uint32_t comp, bool* root) {
    const size_t start = pos_;
    instr_pos_.push_back(start);
    if (starts("ROOT") && pos_ + 4 < s_.size() && is_space(s_[pos_ + 4])) {
      *root = true;
      pos_ += 4;
      skip_spaces();
    }
    size_t b = pos_;
    while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
    std::string_view name = strip_percent(s_.substr(b, pos_ - b));
    if (name.empty()) return fail(start, "expected an instruction name");
    skip_spaces();
    if (pos_ >= s_.size() || s_[pos_] != '=')
      return fail(start, "expected '=' after the instruction name '" + std::string(name) + "'");
    ++pos_;
    skip_spaces();
    // Shape: a tuple `( ... )`, or `type[dims]` with an optional `{layout}`.
    b = pos_;
    bool unterminated = false;
    if (pos_ < s_.size() && s_[pos_] == '(') {
      size_t e = scan(pos_ + 1, "", false, &unterminated);
      if (unterminated || e >= s_.size() || s_[e] != ')')
        return fail(start, "unbalanced tuple shape of '" + std::string(name) + "'");
      pos_ = e + 1;
    } else {
      while (pos_ < s_.size() && s_[pos_] != '[' && is_name_char(s_[pos_])) ++pos_;
      if (pos_ >= s_.size() || s_[pos_] != '[')
        return fail(start, "expected a shape after '" + std::string(name) + " ='");
      size_t e = s_.find(']', pos_);
      if (e == std::string_view::npos ||
          s_.substr(pos_, e - pos_).find('\n') != std::string_view::npos)
        return fail(start, "unclosed '[' in the shape of '" + std::string(name) + "'");
      pos_ = e + 1;
      if (pos_ < s_.size() && s_[pos_] == '{') {
        size_t le = scan(pos_ + 1, "", false, &unterminated);
        if (unterminated || le >= s_.size() || s_[le] != '}')
          return fail(start, "unclosed layout in the shape of '" + std::string(name) + "'");
        pos_ = le + 1;
      }
    }
    std::string_view shape = s_.substr(b, pos_ - b);
    ParsedShape ps;
    if (!parse_shape_text(shape, &ps))
      return fail(start, "cannot read the shape '" + std::string(shape.substr(0, 80)) + "'");
    skip_spaces();
    b = pos_;
    while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
    std::string_view opcode = s_.substr(b, pos_ - b);
    if (opcode.empty() || pos_ >= s_.size() || s_[pos_] != '(')
      return fail(start, "expected 'opcode(' after the shape of '" + std::string(name) + "'");
    const size_t args_end = scan(pos_ + 1, "", false, &unterminated);
    if (unterminated || args_end >= s_.size() || s_[args_end] != ')')
      return fail(start, "unbalanced operand list of '" + std::string(name) + "'");
    std::string_view args = s_.substr(pos_ + 1, args_end - pos_ - 1);
    pos_ = args_end + 1;

    HloModule& m = *m_;
    m.name.push_back(m.strings.intern(name));
    m.opcode.push_back(m.strings.intern(opcode));
    m.shape.push_back(m.strings.intern(shape));
    m.dtype.push_back(ps.dtype);
    m.dims.insert(m.dims.end(), ps.dims.begin(), ps.dims.end());
    m.dims_begin.push_back(static_cast<uint32_t>(m.dims.size()));
    m.layout.push_back(ps.layout.empty() ? 0 : m.strings.intern(ps.layout));
    m.memory_space.push_back(ps.memory_space);
    m.computation.push_back(comp);
    StrId fusion_kind = 0, op_type = 0, op_name = 0, source_file = 0, target = 0, config = 0;
    int32_t source_line = 0, param = -1;
    uint32_t frame = kNone;
    std::string& attrs = attrs_;
    attrs.clear();

    // Operands: `a, b`, `f32[2]{0} %a, ...`, with `/*index=5*/` comments; parameter(n) and
    // constant(literal) hold no operands.
    if (opcode == "parameter") {
      int64_t v = 0;
      std::string_view t = trim(args, kSpaceAndNewline);
      auto r = std::from_chars(t.data(), t.data() + t.size(), v);
      if (r.ec != std::errc() || v < 0 || v > INT32_MAX)
        return fail(start, "expected a parameter number in '" + std::string(name) + "'");
      param = static_cast<int32_t>(v);
    } else if (opcode == "constant") {
      std::string_view t = trim(args, kSpaceAndNewline);
      if (!t.empty())
        attrs = "value=" + std::string(t.substr(0, 200)) + (t.size() > 200 ? "..." : "");
    } else {
      size_t at = 0;
      while (at < args.size()) {
        size_t e = scan_in(args, at);
        std::string_view item = args.substr(at, e - at);
        // The name is the last token (before it: the operand's shape, or a comment).
        size_t k = item.size();
        while (k > 0 && (is_space(item[k - 1]) || item[k - 1] == '\n')) --k;
        size_t j = k;
        while (j > 0 && is_name_char(item[j - 1])) --j;
        std::string_view op = strip_percent(item.substr(j, k - j));
        if (!op.empty()) {
          pending_operands_.push_back(op);
        } else if (!trim(item, kSpaceAndNewline).empty()) {
          return fail(start, "cannot read operand '" +
                                 std::string(trim(item, kSpaceAndNewline).substr(0, 80)) +
                                 "' of '" + std::string(name) + "'");
        }
        at = e + 1;
      }
    }
    operand_ends_.push_back(static_cast<uint32_t>(pending_operands_.size()));

    // Attributes: `, key=value` up to the end of the statement.
    for (;;) {
      skip_spaces();
      if (pos_ >= s_.size() || s_[pos_] == '\n') break;
      if (s_[pos_] == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {  // trailing comment
        pos_ = scan(pos_, "", true, &unterminated);
        break;
      }
      if (s_[pos_] != ',')
        return fail(pos_, "expected ',' or the end of the line after '" + std::string(name) + "'");
      ++pos_;
      skip_spaces();
      const size_t kb = pos_;
      size_t e = scan(pos_, ",", true, &unterminated);
      if (unterminated) return fail(start, "unterminated string in '" + std::string(name) + "'");
      if (e < s_.size() && (s_[e] == ')' || s_[e] == ']' || s_[e] == '}'))
        return fail(e, "unbalanced '" + std::string(1, s_[e]) + "' in '" + std::string(name) + "'");
      std::string_view attr = trim(s_.substr(kb, e - kb), kSpaceAndNewline);
      pos_ = e;
      size_t eq = attr.find('=');
      std::string_view key =
          eq == std::string_view::npos ? attr : trim(attr.substr(0, eq), kSpaceAndNewline);
      std::string_view value = eq == std::string_view::npos
                                   ? std::string_view()
                                   : trim(attr.substr(eq + 1), kSpaceAndNewline);
      if (is_computation_attr(key)) {
        if (!value.empty() && value.front() == '{') value = value.substr(1, value.size() - 2);
        size_t at = 0;
        while (at <= value.size()) {
          size_t c = value.find(',', at);
          if (c == std::string_view::npos) c = value.size();
          std::string_view callee = strip_percent(trim(value.substr(at, c - at), kSpaceAndNewline));
          if (!callee.empty()) pending_called_.push_back(callee);
          at = c + 1;
        }
      } else if (key == "kind") {
        fusion_kind = m.strings.intern(value);
      } else if (key == "metadata") {
        metadata(value, &op_type, &op_name, &source_file, &source_line, &frame);
      } else if (key == "custom_call_target") {
        target = m.strings.intern(unquote(value, &buf_));
      } else if (key == "backend_config") {
        config = m.strings.intern(value.starts_with('"') ? unquote(value, &buf_) : value);
      } else if (!attr.empty()) {
        if (!attrs.empty()) attrs += ", ";
        attrs += attr;
      }
    }
    called_ends_.push_back(static_cast<uint32_t>(pending_called_.size()));
    m.parameter_number.push_back(param);
    m.fusion_kind.push_back(fusion_kind);
    m.op_type.push_back(op_type);
    m.op_name.push_back(op_name);
    m.source_file.push_back(source_file);
    m.source_line.push_back(source_line);
    m.custom_call_target.push_back(target);
    m.backend_config.push_back(config);
    m.attrs.push_back(attrs.empty() ? 0 : m.strings.intern(attrs));
    m.stack_frame.push_back(frame);
    complete_instrs_ = static_cast<uint32_t>(m.name.size());
    return true;
  }

  // Next depth-0 comma (or the end) within an operand list.
  size_t scan_in(std::string_view args, size_t at) const {
    int depth = 0;
    for (; at < args.size(); ++at) {
      const char c = args[at];
      if (c == '"') {
        for (++at; at < args.size() && args[at] != '"'; at += args[at] == '\\' ? 2 : 1) {
        }
        if (at >= args.size()) return args.size();
        continue;
      }
      if (c == '/' && at + 1 < args.size() && args[at + 1] == '*') {
        size_t e = args.find("*/", at + 2);
        if (e == std::string_view::npos) return args.size();
        at = e + 1;
        continue;
      }
      if (c == '(' || c == '[' || c == '{')
        ++depth;
      else if (c == ')' || c == ']' || c == '}')
        --depth;
      else if (c == ',' && depth == 0)
        return at;
    }
    return args.size();
  }

  // `{op_type="..." op_name="..." source_file="..." source_line=12 stack_frame_id=3 ...}`
  void metadata(std::string_view v, StrId* op_type, StrId* op_name, StrId* source_file,
                int32_t* source_line, uint32_t* frame) {
    if (v.size() < 2 || v.front() != '{') return;
    v = v.substr(1, v.size() - 2);
    size_t at = 0;
    while (at < v.size()) {
      while (at < v.size() && (is_space(v[at]) || v[at] == '\n' || v[at] == ',')) ++at;
      size_t kb = at;
      while (at < v.size() && v[at] != '=' && !is_space(v[at])) ++at;
      std::string_view key = v.substr(kb, at - kb);
      if (at >= v.size() || v[at] != '=') break;
      ++at;
      size_t vb = at;
      if (at < v.size() && v[at] == '"') {
        for (++at; at < v.size() && v[at] != '"'; at += v[at] == '\\' ? 2 : 1) {
        }
        at = std::min(at + 1, v.size());
      } else {
        int depth = 0;
        for (; at < v.size(); ++at) {
          char c = v[at];
          if (c == '{' || c == '(' || c == '[')
            ++depth;
          else if (c == '}' || c == ')' || c == ']')
            --depth;
          else if (depth <= 0 && (is_space(c) || c == '\n'))
            break;
        }
      }
      std::string_view val = v.substr(vb, at - vb);
      if (key == "op_type")
        *op_type = m_->strings.intern(unquote(val, &buf_));
      else if (key == "op_name")
        *op_name = m_->strings.intern(unquote(val, &buf_));
      else if (key == "source_file")
        *source_file = m_->strings.intern(unquote(val, &buf_));
      else if (key == "source_line") {
        int64_t n = 0;
        std::from_chars(val.data(), val.data() + val.size(), n);
        *source_line = static_cast<int32_t>(std::clamp<int64_t>(n, INT32_MIN, INT32_MAX));
      } else if (key == "stack_frame_id") {
        int64_t n = 0;
        std::from_chars(val.data(), val.data() + val.size(), n);
        *frame = frame_index_of_id(n);
      }
    }
  }

  bool end_module() {
    if (!m_) return true;
    HloModule& m = *m_;
    const size_t n = m.name.size();
    if (m.comp_name.empty())
      return fail(pos_, "module '" + m.module_name + "' has no computations");
    std::unordered_map<std::string_view, uint32_t> comps;
    for (uint32_t c = 0; c < m.comp_name.size(); ++c)
      if (!comps.emplace(m.str(m.comp_name[c]), c).second)
        return fail(comp_line_[c],
                    "computation '" + std::string(m.str(m.comp_name[c])) + "' defined twice");
    m.called_begin.assign(1, 0);
    const StrId fusion = m.strings.find("fusion");
    for (size_t i = 0; i < n; ++i) {
      for (uint32_t k = called_ends_[i]; k < called_ends_[i + 1]; ++k) {
        auto it = comps.find(pending_called_[k]);
        if (it == comps.end())
          return fail(instr_pos_[i], "computation '" + std::string(pending_called_[k]) +
                                         "' called by '" + std::string(m.str(m.name[i])) +
                                         "' is not defined");
        m.called.push_back(it->second);
        if (m.opcode[i] == fusion) m.comp_is_fusion[it->second] = 1;
      }
      m.called_begin.push_back(static_cast<uint32_t>(m.called.size()));
    }
    // XLA: without ENTRY, the last computation is the entry. A dump always marks it, so say
    // so: the text may have been cut before its ENTRY.
    if (m.entry == kNone && !m.comp_name.empty()) {
      m.entry = static_cast<uint32_t>(m.comp_name.size() - 1);
      m.note = "no ENTRY computation: the last one, '" + std::string(m.str(m.comp_name.back())) +
               "' (line " + std::to_string(line_of(comp_line_.back())) + "), is taken as the entry";
    }
    std::string why;
    if (!finish_module(&m, &why)) return fail(pos_, why);
    m_ = nullptr;
    def_.clear();
    pending_operands_.clear();
    pending_called_.clear();
    operand_ends_.clear();
    called_ends_.clear();
    instr_pos_.clear();
    comp_line_.clear();
    complete_instrs_ = closed_comps_ = 0;
    return true;
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::vector<HloModule>* out_;
  std::string* error_;
  HloModule* m_ = nullptr;     // the module being read (last of out_)
  std::vector<uint32_t> def_;  // StrId of a name → its latest instruction
  std::string attrs_, buf_;    // scratch, reused
  std::vector<std::string_view> pending_operands_, pending_called_;
  std::vector<uint32_t> operand_ends_, called_ends_;
  std::vector<size_t> instr_pos_, comp_line_;
  uint32_t complete_instrs_ = 0;  // instructions whose every column is filled
  uint32_t closed_comps_ = 0;     // computations closed with their operands resolved
};

}  // namespace

bool parse_hlo_text(std::string_view text, std::vector<HloModule>* out, std::string* error) {
  const size_t before = out->size();
  TextParser p(text, out, error);
  if (p.run()) return true;
  // The module being read when the error came opens with what was read, unless that is nothing.
  if (p.incomplete() && out->size() > before && !p.salvage()) out->pop_back();
  return false;
}

bool looks_like_hlo_text(std::string_view bytes) {
  size_t at = 0;
  while (at < bytes.size()) {
    char c = bytes[at];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++at;
    } else if (bytes.substr(at, 2) == "//") {
      size_t nl = bytes.find('\n', at);
      if (nl == std::string_view::npos) return false;
      at = nl + 1;
    } else {
      return bytes.substr(at, 10) == "HloModule ";
    }
  }
  return false;
}

}  // namespace strata::hlo
