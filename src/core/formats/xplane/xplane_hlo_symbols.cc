#include "core/formats/xplane/xplane_hlo_symbols.h"

#include "core/formats/hlo/hlo_module.h"
#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/xplane/xla_op_text.h"

namespace strata {

const HloSymbol* HloSymbols::find(bool has_program, int64_t program, StrId module,
                                  StrId hlo_op) const {
  if (!has_program) {
    auto m = program_of_module.find(module);
    if (m == program_of_module.end()) return nullptr;
    program = m->second;
  }
  auto p = by_program.find(program);
  if (p == by_program.end()) return nullptr;
  auto s = p->second.find(hlo_op);
  return s == p->second.end() ? nullptr : &s->second;
}

bool add_hlo_symbols(const uint8_t* data, size_t size, int64_t program_id, StringTable* strings,
                     HloSymbols* out, std::string* error, HloOpTexts* texts) {
  hlo::HloModule m;
  if (!hlo::parse_hlo_proto(data, size, &m, error)) return false;
  auto& table = out->by_program[program_id];
  for (uint32_t i = 0; i < m.instruction_count(); ++i) {
    if (m.comp_is_fusion[m.computation[i]]) continue;  // inside a fusion: no kernel of its own
    HloSymbol s;
    if (m.op_name[i]) s.tf_op = strings->intern(m.str(m.op_name[i]));
    std::string src;
    if (m.source_file[i]) {
      src = m.str(m.source_file[i]);
      if (m.source_line[i] > 0) src += ":" + std::to_string(m.source_line[i]);
      s.source = strings->intern(src);
    }
    if (s.tf_op || s.source) table[strings->intern(m.str(m.name[i]))] = s;
    if (texts)
      texts->by_program[program_id][std::string(m.str(m.name[i]))] =
          HloOpText{hlo_instruction_expression(m, i), hlo_instruction_category(m, i),
                    hlo_fused_instructions(m, i),     std::string(m.str(m.op_name[i])),
                    std::string(m.str(m.op_type[i])), std::move(src)};
  }
  if (!m.module_name.empty()) out->program_of_module[strings->intern(m.module_name)] = program_id;
  if (texts && !m.module_name.empty()) texts->program_of_module[m.module_name] = program_id;
  return true;
}

}  // namespace strata
