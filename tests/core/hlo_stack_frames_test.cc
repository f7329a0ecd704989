// XLA's stack frame index in HLO text (the FileNames, FunctionNames, FileLocations and
// StackFrames sections, written as HloModule::PrintStackFrameIndex writes them, empty ones
// too) and in HloProto (HloModuleProto.stack_frame_index): each instruction's stack_frame_id
// resolves to its innermost file:line and function, with the calling chain; metadata of its own
// wins. A module cut off mid-way opens with what was read and a message naming the line.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/hlo/hlo_text_parser.h"
#include "core/graph/graph_message.h"
#include "hlo.pb.h"
#include "import_test_util.h"

namespace strata::hlo {
namespace {

// As XLA prints it: parent_frame_id is the proto's 1-based parent plus one (1 = outermost).
// Frames: 1 <module> :102, 2 main :71 (called from 1), 3 diamond :44 (from 2), 4 diamond :45.
constexpr const char* kModern =
    R"hlo(HloModule jit_diamond, is_scheduled=true, entry_computation_layout={(f32[6,8]{1,0})->f32[6,8]{1,0}}

FileNames
1 "/home/u/diamond.py"
2 "/home/u/caf\303\251.py"

FunctionNames
1 "<module>"
2 "main"
3 "diamond"

FileLocations
1 {file_name_id=1 function_name_id=1 line=102 end_line=102 column=4 end_column=10}
2 {file_name_id=1 function_name_id=2 line=71 end_line=71 column=14 end_column=45}
3 {file_name_id=2 function_name_id=3 line=44 end_line=44 column=9 end_column=14}
4 {file_name_id=2 function_name_id=3 line=45 end_line=46 column=9 end_column=15}

StackFrames
1 {file_location_id=1 parent_frame_id=1}
2 {file_location_id=2 parent_frame_id=2}
3 {file_location_id=3 parent_frame_id=3}
4 {file_location_id=4 parent_frame_id=3}


%fused_computation (param_0: f32[6,8]) -> f32[6,8] {
  %param_0 = f32[6,8]{1,0} parameter(0)
  %add.1 = f32[6,8]{1,0} add(%param_0, %param_0), metadata={op_name="jit(diamond)/add" stack_frame_id=3}
  ROOT %mul.0 = f32[6,8]{1,0} multiply(%add.1, %param_0), metadata={op_name="jit(diamond)/mul" stack_frame_id=4}
}

ENTRY %main.1 (x: f32[6,8]) -> f32[6,8] {
  %x = f32[6,8]{1,0} parameter(0), metadata={op_name="x"}
  %own = f32[6,8]{1,0} negate(%x), metadata={op_name="neg" source_file="own.py" source_line=7 stack_frame_id=2}
  %bad = f32[6,8]{1,0} negate(%own), metadata={op_name="neg" stack_frame_id=99}
  ROOT %fusion = f32[6,8]{1,0} fusion(%bad), kind=kLoop, calls=%fused_computation, metadata={op_name="jit(diamond)/mul" stack_frame_id=4}
}

)hlo";

HloModule parse_one(std::string_view text) {
  std::vector<HloModule> modules;
  std::string error;
  EXPECT_TRUE(parse_hlo_text(text, &modules, &error)) << error;
  EXPECT_EQ(modules.size(), 1u);
  return modules.empty() ? HloModule{} : std::move(modules.front());
}

TEST(HloStackFrames, ModernDumpResolvesFramesToFileLineAndFunction) {
  HloModule m = parse_one(kModern);
  ASSERT_EQ(m.file_names.size(), 2u);
  EXPECT_EQ(m.str(m.file_names[1]), "/home/u/caf\xc3\xa9.py") << "octal escapes are UTF-8 bytes";
  ASSERT_EQ(m.function_names.size(), 3u);
  ASSERT_EQ(m.location_file.size(), 4u);
  EXPECT_EQ(m.location_end_line[3], 46);
  EXPECT_EQ(m.location_column[3], 9);
  EXPECT_EQ(m.location_end_column[3], 15);
  ASSERT_EQ(m.frame_count(), 4u);
  EXPECT_EQ(m.frame_parent[0], kNone);
  EXPECT_EQ(m.frame_parent[1], 0u);
  EXPECT_EQ(m.frame_parent[2], 1u);
  EXPECT_EQ(m.frame_parent[3], 1u);

  const uint32_t add = m.find("add.1"), mul = m.find("mul.0"), fusion = m.find("fusion");
  EXPECT_EQ(m.str(m.source_file[add]), "/home/u/caf\xc3\xa9.py");
  EXPECT_EQ(m.source_line[add], 44);
  EXPECT_EQ(m.str(m.source_function[add]), "diamond");
  EXPECT_EQ(m.source_line[mul], 45);
  EXPECT_EQ(m.stack_frame[fusion], 3u);
  EXPECT_EQ(m.source_line[fusion], 45);
  EXPECT_EQ(m.str(m.op_name[fusion]), "jit(diamond)/mul");

  // The chain, innermost first: diamond:45 ← main:71 ← <module>:102.
  const std::vector<uint32_t> chain = m.stack_of(fusion);
  ASSERT_EQ(chain.size(), 3u);
  EXPECT_EQ(m.frame_source(chain[0]), "/home/u/caf\xc3\xa9.py:45");
  EXPECT_EQ(m.frame_function(chain[1]), "main");
  EXPECT_EQ(m.frame_source(chain[1]), "/home/u/diamond.py:71");
  EXPECT_EQ(m.frame_function(chain[2]), "<module>");

  // Metadata of its own wins for file:line; the frame still gives the function.
  const uint32_t own = m.find("own");
  EXPECT_EQ(m.str(m.source_file[own]), "own.py");
  EXPECT_EQ(m.source_line[own], 7);
  EXPECT_EQ(m.str(m.source_function[own]), "main");
  // An id past the table is no frame; no metadata frame is no frame.
  EXPECT_EQ(m.stack_frame[m.find("bad")], kNone);
  EXPECT_EQ(m.source_file[m.find("bad")], 0u);
  EXPECT_EQ(m.stack_frame[m.find("x")], kNone);
  EXPECT_TRUE(m.stack_of(m.find("x")).empty());
  EXPECT_TRUE(m.note.empty()) << m.note;

  // The node details carry the function and the chain.
  const std::string details = strata::graph::instruction_details_json(m, fusion);
  EXPECT_NE(details.find("\"sourceFunction\":\"diamond\""), std::string::npos) << details;
  EXPECT_NE(
      details.find(
          "\"stack\":[\"diamond (/home/u/caf\xc3\xa9.py:45)\",\"main (/home/u/diamond.py:71)\""),
      std::string::npos)
      << details;
}

TEST(HloStackFrames, EmptySectionsParse) {
  // What XLA prints for a module with frames but, say, nothing in some tables; and with all
  // four empty.
  HloModule m = parse_one(
      "HloModule m\n\nFileNames\n\nFunctionNames\n\nFileLocations\n\nStackFrames\n\n\n"
      "ENTRY e {\n  ROOT a = f32[] parameter(0), metadata={op_name=\"a\" stack_frame_id=1}\n}\n");
  EXPECT_EQ(m.frame_count(), 0u);
  EXPECT_EQ(m.stack_frame[0], kNone);
  EXPECT_EQ(m.instruction_count(), 1u);

  HloModule n = parse_one(
      "HloModule m\n\nFileNames\n1 \"a.py\"\n\nFunctionNames\n\nFileLocations\n"
      "1 {file_name_id=1 function_name_id=0 line=3 end_line=3 column=1 end_column=2}\n\n"
      "StackFrames\n1 {file_location_id=1 parent_frame_id=1}\n\n\n"
      "ENTRY e {\n  ROOT a = f32[] parameter(0), metadata={stack_frame_id=1}\n}\n");
  EXPECT_EQ(n.str(n.source_file[0]), "a.py");
  EXPECT_EQ(n.source_line[0], 3);
  EXPECT_EQ(n.source_function[0], 0u) << "a location without a function";
}

TEST(HloStackFrames, LoopingParentsStop) {
  HloModule m = parse_one(
      "HloModule m\nFileNames\n1 \"a.py\"\nFunctionNames\n1 \"f\"\nFileLocations\n"
      "1 {file_name_id=1 function_name_id=1 line=1 end_line=1 column=0 end_column=0}\n"
      "StackFrames\n1 {file_location_id=1 parent_frame_id=3}\n"
      "2 {file_location_id=1 parent_frame_id=2}\n"
      "ENTRY e {\n  ROOT a = f32[] parameter(0), metadata={stack_frame_id=1}\n}\n");
  EXPECT_EQ(m.stack_of(0).size(), 2u);
}

TEST(HloStackFrames, MalformedSectionNamesTheLine) {
  std::vector<HloModule> modules;
  std::string error;
  EXPECT_FALSE(parse_hlo_text("HloModule m\n\nFileNames\n1 /a.py\n", &modules, &error));
  EXPECT_EQ(error.substr(0, 7), "line 4:") << error;
  EXPECT_FALSE(parse_hlo_text("HloModule m\nFileLocations\n1 {file_name_id=1\n", &modules, &error));
  EXPECT_EQ(error.substr(0, 7), "line 3:") << error;
  EXPECT_TRUE(modules.empty());
}

TEST(HloStackFrames, ProtoStackFrameIndex) {
  xla::HloProto proto;
  xla::HloModuleProto* mp = proto.mutable_hlo_module();
  mp->set_name("m");
  xla::StackFrameIndexProto* index = mp->mutable_stack_frame_index();
  index->add_file_names("a.py");
  index->add_function_names("outer");
  index->add_function_names("inner");
  auto* l1 = index->add_file_locations();
  l1->set_file_name_id(1), l1->set_function_name_id(1), l1->set_line(10);
  auto* l2 = index->add_file_locations();
  l2->set_file_name_id(1), l2->set_function_name_id(2), l2->set_line(20), l2->set_end_line(21);
  auto* f1 = index->add_stack_frames();
  f1->set_file_location_id(1);  // parent 0: outermost
  auto* f2 = index->add_stack_frames();
  f2->set_file_location_id(2), f2->set_parent_frame_id(1);
  xla::HloComputationProto* c = mp->add_computations();
  c->set_name("e"), c->set_id(1), c->set_root_id(1);
  xla::HloInstructionProto* i = c->add_instructions();
  i->set_name("p"), i->set_opcode("parameter"), i->set_id(1);
  i->mutable_shape()->set_element_type(11);
  i->mutable_metadata()->set_stack_frame_id(2);
  mp->set_entry_computation_id(1);
  const std::string bytes = proto.SerializeAsString();
  HloModule m;
  std::string error;
  ASSERT_TRUE(
      parse_hlo_proto(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &m, &error))
      << error;
  ASSERT_EQ(m.frame_count(), 2u);
  EXPECT_EQ(m.stack_frame[0], 1u);
  EXPECT_EQ(m.str(m.source_file[0]), "a.py");
  EXPECT_EQ(m.source_line[0], 20);
  EXPECT_EQ(m.location_end_line[1], 21);
  EXPECT_EQ(m.str(m.source_function[0]), "inner");
  const std::vector<uint32_t> chain = m.stack_of(0);
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(m.frame_function(chain[1]), "outer");
}

TEST(HloCutShort, UnclosedComputationOpensWithWhatWasRead) {
  const std::string text(kModern);
  // Cut inside the ENTRY computation, after `%own`.
  const size_t cut = text.find("  %bad");
  std::vector<HloModule> modules;
  std::string error;
  EXPECT_FALSE(parse_hlo_text(std::string_view(text).substr(0, cut), &modules, &error));
  ASSERT_EQ(modules.size(), 1u) << error;
  const HloModule& m = modules[0];
  EXPECT_EQ(m.computation_count(), 2u);
  EXPECT_EQ(m.instruction_count(), 5u);
  EXPECT_EQ(m.str(m.comp_name[m.entry]), "main.1");
  EXPECT_EQ(m.str(m.name[m.comp_root[m.entry]]), "own");
  EXPECT_EQ(m.source_line[m.find("add.1")], 44) << "frames still resolve";
  EXPECT_EQ(error, m.note);
  EXPECT_NE(error.find("not closed"), std::string::npos) << error;
  EXPECT_EQ(error.substr(0, 8), "line 34:") << "names where the text stops: " << error;
  EXPECT_NE(error.find("(from line 31)"), std::string::npos) << error;
  EXPECT_NE(error.find("2 computations, 5 instructions"), std::string::npos) << error;

  // Cut in the middle of an instruction: the instructions before it stay.
  const size_t mid = text.find("multiply(%add.1") + 4;
  modules.clear();
  EXPECT_FALSE(parse_hlo_text(std::string_view(text).substr(0, mid), &modules, &error));
  ASSERT_EQ(modules.size(), 1u) << error;
  EXPECT_EQ(modules[0].instruction_count(), 2u);
  EXPECT_EQ(error.substr(0, 8), "line 28:") << error;
}

TEST(HloCutShort, NoEntryComputationSaysSo) {
  const std::string text(kModern);
  const size_t cut = text.find("ENTRY");
  std::vector<HloModule> modules;
  std::string error;
  EXPECT_TRUE(parse_hlo_text(std::string_view(text).substr(0, cut), &modules, &error)) << error;
  ASSERT_EQ(modules.size(), 1u);
  EXPECT_NE(modules[0].note.find("no ENTRY"), std::string::npos) << modules[0].note;
  EXPECT_NE(modules[0].note.find("fused_computation"), std::string::npos) << modules[0].note;
}

TEST(HloCutShort, UndefinedOperandOrCalleeKeepsTheRest) {
  std::vector<HloModule> modules;
  std::string error;
  EXPECT_FALSE(
      parse_hlo_text("HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n  b = f32[] negate(a)\n"
                     "  c = f32[] negate(zz)\n  ROOT d = f32[] call(b), to_apply=nope\n}\n",
                     &modules, &error));
  ASSERT_EQ(modules.size(), 1u);
  EXPECT_EQ(modules[0].instruction_count(), 2u);
  EXPECT_EQ(modules[0].str(modules[0].name[modules[0].comp_root[0]]), "b");
  modules.clear();
  EXPECT_FALSE(parse_hlo_text("HloModule m\nENTRY e {\n  ROOT a = f32[] call(), to_apply=nope\n}\n",
                              &modules, &error));
  ASSERT_EQ(modules.size(), 1u);
  EXPECT_TRUE(modules[0].called_of(0).empty());
}

// Real dumps, when present: every HLO text file under ../shared/data/hlo parses whole, and
// where it carries stack frames, some instruction resolves to one.
TEST(HloStackFramesRealFiles, EveryTextDumpParsesAndFramesResolve) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path root = testing::shared_path("hlo");
  if (!fs::is_directory(root, ec)) GTEST_SKIP() << "no ../shared/data/hlo";
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root, ec)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".hlo" && ext != ".txt")) continue;
    std::string text;
    if (!testing::read_file(entry.path().string(), &text) || !looks_like_hlo_text(text)) continue;
    ++files;
    SCOPED_TRACE(entry.path().string());
    std::vector<HloModule> modules;
    std::string error;
    ASSERT_TRUE(parse_hlo_text(text, &modules, &error)) << error;
    for (const HloModule& m : modules) {
      if (m.frame_count() == 0) continue;
      size_t resolved = 0;
      for (uint32_t i = 0; i < m.instruction_count(); ++i) resolved += m.stack_frame[i] != kNone;
      EXPECT_GT(resolved, 0u);
    }
  }
  if (files == 0) GTEST_SKIP() << "no HLO text in ../shared/data/hlo";
}

// Real JAX protos carry a stack frame index: every instruction's frame resolves to the file,
// line and function the generated classes read from the same bytes.
TEST(HloStackFramesRealFiles, ProtoFramesEqualTheGeneratedClassesDecode) {
  size_t files = 0, resolved = 0;
  for (const char* rel : {"hlo/tracelens/jax_conv_minimal/jit__normal(11).hlo_proto.pb",
                          "hlo/tracelens/jax_conv_minimal/jit__threefry_split(5).hlo_proto.pb",
                          "hlo/tracelens/jax_conv_minimal/jit_forward_3d_conv(15).hlo_proto.pb"}) {
    std::string bytes;
    if (!testing::read_shared(rel, &bytes)) continue;
    ++files;
    SCOPED_TRACE(rel);
    xla::HloProto want;
    ASSERT_TRUE(want.ParseFromString(bytes));
    const xla::StackFrameIndexProto& index = want.hlo_module().stack_frame_index();
    HloModule m;
    std::string error;
    ASSERT_TRUE(
        parse_hlo_proto(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &m, &error))
        << error;
    ASSERT_EQ(m.frame_count(), static_cast<uint32_t>(index.stack_frames_size()));
    for (const auto& c : want.hlo_module().computations()) {
      for (const auto& wi : c.instructions()) {
        const uint32_t i = m.find(wi.name());
        ASSERT_NE(i, kNone) << wi.name();
        const int id = wi.metadata().stack_frame_id();
        if (id <= 0 || id > index.stack_frames_size()) {
          EXPECT_EQ(m.stack_frame[i], kNone);
          continue;
        }
        ASSERT_EQ(m.stack_frame[i], static_cast<uint32_t>(id - 1));
        const auto& loc = index.file_locations(index.stack_frames(id - 1).file_location_id() - 1);
        EXPECT_EQ(m.str(m.source_function[i]), index.function_names(loc.function_name_id() - 1));
        if (wi.metadata().source_file().empty()) {
          EXPECT_EQ(m.str(m.source_file[i]), index.file_names(loc.file_name_id() - 1));
          EXPECT_EQ(m.source_line[i], loc.line());
        }
        ++resolved;
      }
    }
  }
  if (files == 0) GTEST_SKIP() << "no JAX HloProtos in ../shared/data/hlo/tracelens";
  EXPECT_GT(resolved, 0u);
}

}  // namespace
}  // namespace strata::hlo
