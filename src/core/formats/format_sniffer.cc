#include "core/formats/format_sniffer.h"

#include <vector>

#include "core/formats/chrome_json/chrome_json_importer.h"
#include "core/formats/detect_format.h"
#include "core/formats/perfetto/perfetto_importer.h"
#include "core/formats/xplane/xplane_importer.h"
#include "core/store/trace_store.h"

namespace strata {

namespace {

// A JSON file may start with this much whitespace before we give up looking and let the JSON
// importer judge it.
constexpr size_t kMaxSniff = 4096;
// Bytes of a file of no known kind looked at to say what it is (a tar header is 262).
constexpr size_t kDescribeBytes = 512;

// Takes nothing and fails with the message it was made with.
class RefusingImporter final : public Importer {
 public:
  explicit RefusingImporter(std::string why) : why_(std::move(why)) {}
  void feed(const uint8_t*, size_t) override {}
  void finish() override {}
  bool failed() const override { return true; }
  const std::string& failure() const override { return why_; }
  uint64_t records() const override { return 0; }

 private:
  std::string why_;
};

class SniffingImporter final : public Importer {
 public:
  explicit SniffingImporter(TraceStore* store) : store_(store) {}

  void feed(const uint8_t* data, size_t n) override {
    if (inner_) {
      inner_->feed(data, n);
    } else if (head_.empty() && decide(data, n, false)) {
      inner_->feed(data, n);  // decided on the first chunk: no copy
    } else {
      head_.insert(head_.end(), data, data + n);
      if (decide(head_.data(), head_.size(), false)) replay();
    }
  }

  void finish() override {
    if (!inner_) {
      decide(head_.data(), head_.size(), true);
      replay();
    }
    inner_->finish();
  }

  bool failed() const override { return inner_ && inner_->failed(); }
  const std::string& failure() const override { return inner_ ? inner_->failure() : none_; }
  uint64_t records() const override { return inner_ ? inner_->records() : 0; }
  // The first file decided the format; later files of the load go to the same importer.
  bool next_file() override {
    if (!inner_) {
      decide(head_.data(), head_.size(), true);
      replay();
    }
    if (store_->files.size() > 1) store_->files.back().format = store_->files.front().format;
    return inner_->next_file();
  }

 private:
  void replay() {
    std::vector<uint8_t> head;
    head.swap(head_);
    if (!head.empty()) inner_->feed(head.data(), head.size());
  }

  // Creates the inner importer once the first bytes tell the format (always at the end).
  bool decide(const uint8_t* p, size_t n, bool at_end) {
    size_t i = 0;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) i = 3;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) ++i;
    if (i == n && !at_end && n < kMaxSniff) return false;
    // Anything that is not an XSpace or a Perfetto trace goes to the JSON importer, whose error
    // says what it expected.
    FileKind kind = trace_kind(p, n);
    // Magic bytes need more than the decompressor's 4-byte sniff: gather a few hundred first.
    if (kind == FileKind::kUnknown && !at_end && n < kDescribeBytes) return false;
    if (kind == FileKind::kUnknown && !store_->files.empty()) {
      // A file of a kind Strata does not read at all is named as what it is.
      const SourceFile& f = store_->files[0];
      std::string what = describe_unknown(f.name, p, n, compression_named(f.compression));
      if (!what.empty()) {
        inner_ = std::make_unique<RefusingImporter>(std::move(what));
        return true;
      }
    }
    if (kind != FileKind::kXSpace && kind != FileKind::kPerfetto) kind = FileKind::kChromeJson;
    if (!store_->files.empty()) store_->files[0].format = file_kind_name(kind);
    inner_ = kind == FileKind::kXSpace     ? make_xplane_importer(store_)
             : kind == FileKind::kPerfetto ? make_perfetto_importer(store_)
                                           : make_chrome_json_importer(store_);
    return true;
  }

  TraceStore* store_;
  std::unique_ptr<Importer> inner_;
  std::vector<uint8_t> head_;
  std::string none_;
};

}  // namespace

std::unique_ptr<Importer> make_format_sniffing_importer(TraceStore* store) {
  return std::make_unique<SniffingImporter>(store);
}

}  // namespace strata
