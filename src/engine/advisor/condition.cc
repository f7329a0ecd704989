#include "engine/advisor/condition.h"

#include <cctype>
#include <cstdlib>

namespace strata {

namespace {

constexpr int kMaxDepth = 32;

struct Token {
  enum class Kind { kEnd, kName, kNumber, kOp, kOpen, kClose, kAnd, kOr, kNot } kind = Kind::kEnd;
  std::string text;
  double number = 0;
  size_t at = 0;
};

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

bool tokenize(const std::string& s, std::vector<Token>* out, std::string* error) {
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token t;
    t.at = i;
    if (c == '(' || c == ')') {
      t.kind = c == '(' ? Token::Kind::kOpen : Token::Kind::kClose;
      ++i;
    } else if (c == '<' || c == '>' || c == '=' || c == '!') {
      const bool eq = i + 1 < s.size() && s[i + 1] == '=';
      if ((c == '=' || c == '!') && !eq) {
        *error = "at " + std::to_string(i) + ": '" + c + "' must be followed by '='";
        return false;
      }
      t.kind = Token::Kind::kOp;
      t.text = s.substr(i, eq ? 2 : 1);
      i += eq ? 2 : 1;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.') {
      char* end = nullptr;
      t.number = std::strtod(s.c_str() + i, &end);
      if (end == s.c_str() + i) {
        *error = "at " + std::to_string(i) + ": not a number";
        return false;
      }
      t.kind = Token::Kind::kNumber;
      i = static_cast<size_t>(end - s.c_str());
    } else if (name_char(c)) {
      size_t j = i;
      while (j < s.size() && name_char(s[j])) ++j;
      t.text = s.substr(i, j - i);
      t.kind = t.text == "and"   ? Token::Kind::kAnd
               : t.text == "or"  ? Token::Kind::kOr
               : t.text == "not" ? Token::Kind::kNot
                                 : Token::Kind::kName;
      i = j;
    } else {
      *error = "at " + std::to_string(i) + ": unexpected '" + std::string(1, c) + "'";
      return false;
    }
    out->push_back(std::move(t));
  }
  Token end;
  end.at = s.size();
  out->push_back(end);
  return true;
}

struct Parser {
  std::vector<Token> tokens;
  size_t pos = 0;
  std::string* error;

  const Token& peek() const { return tokens[pos]; }
  std::unique_ptr<Condition> fail(const std::string& what) {
    if (error->empty()) *error = "at " + std::to_string(peek().at) + ": " + what;
    return nullptr;
  }

  std::unique_ptr<Condition> join(Token::Kind op, Condition::Kind kind, int depth) {
    auto first = kind == Condition::Kind::kOr
                     ? join(Token::Kind::kAnd, Condition::Kind::kAnd, depth)
                     : unary(depth);
    if (!first || peek().kind != op) return first;
    auto node = std::make_unique<Condition>();
    node->kind = kind;
    node->operands.push_back(std::move(first));
    while (peek().kind == op) {
      ++pos;
      auto next = kind == Condition::Kind::kOr
                      ? join(Token::Kind::kAnd, Condition::Kind::kAnd, depth)
                      : unary(depth);
      if (!next) return nullptr;
      node->operands.push_back(std::move(next));
    }
    return node;
  }

  std::unique_ptr<Condition> unary(int depth) {
    if (depth > kMaxDepth) return fail("nested too deeply");
    if (peek().kind == Token::Kind::kNot) {
      ++pos;
      auto inner = unary(depth + 1);
      if (!inner) return nullptr;
      auto node = std::make_unique<Condition>();
      node->kind = Condition::Kind::kNot;
      node->operands.push_back(std::move(inner));
      return node;
    }
    if (peek().kind == Token::Kind::kOpen) {
      ++pos;
      auto inner = join(Token::Kind::kOr, Condition::Kind::kOr, depth + 1);
      if (!inner) return nullptr;
      if (peek().kind != Token::Kind::kClose) return fail("expected ')'");
      ++pos;
      return inner;
    }
    return compare();
  }

  bool operand(std::string* figure, double* number) {
    const Token& t = peek();
    if (t.kind == Token::Kind::kName) {
      *figure = t.text;
    } else if (t.kind == Token::Kind::kNumber) {
      *number = t.number;
    } else {
      return false;
    }
    ++pos;
    return true;
  }

  std::unique_ptr<Condition> compare() {
    auto node = std::make_unique<Condition>();
    if (!operand(&node->left_figure, &node->left_number))
      return fail("expected a figure or number");
    if (peek().kind != Token::Kind::kOp) return fail("expected a comparison (< <= > >= == !=)");
    node->op = peek().text;
    ++pos;
    if (!operand(&node->right_figure, &node->right_number))
      return fail("expected a figure or number");
    return node;
  }
};

void collect(const Condition& c, std::vector<std::string>* out) {
  auto add = [&](const std::string& n) {
    if (n.empty()) return;
    for (const std::string& have : *out)
      if (have == n) return;
    out->push_back(n);
  };
  if (c.kind == Condition::Kind::kCompare) {
    add(c.left_figure);
    add(c.right_figure);
  }
  for (const auto& o : c.operands) collect(*o, out);
}

}  // namespace

std::unique_ptr<Condition> parse_condition(const std::string& text, std::string* error) {
  Parser p;
  p.error = error;
  error->clear();
  if (!tokenize(text, &p.tokens, error)) return nullptr;
  auto c = p.join(Token::Kind::kOr, Condition::Kind::kOr, 0);
  if (!c) return nullptr;
  if (p.peek().kind != Token::Kind::kEnd) return p.fail("unexpected text after the condition");
  return c;
}

std::vector<std::string> condition_figures(const Condition& c) {
  std::vector<std::string> out;
  collect(c, &out);
  return out;
}

bool evaluate_condition(const Condition& c,
                        const std::function<double(const std::string&)>& figure) {
  switch (c.kind) {
    case Condition::Kind::kAnd:
      for (const auto& o : c.operands)
        if (!evaluate_condition(*o, figure)) return false;
      return true;
    case Condition::Kind::kOr:
      for (const auto& o : c.operands)
        if (evaluate_condition(*o, figure)) return true;
      return false;
    case Condition::Kind::kNot:
      return !evaluate_condition(*c.operands[0], figure);
    case Condition::Kind::kCompare:
      break;
  }
  const double a = c.left_figure.empty() ? c.left_number : figure(c.left_figure);
  const double b = c.right_figure.empty() ? c.right_number : figure(c.right_figure);
  if (c.op == "<") return a < b;
  if (c.op == "<=") return a <= b;
  if (c.op == ">") return a > b;
  if (c.op == ">=") return a >= b;
  if (c.op == "==") return a == b;
  return a != b;
}

}  // namespace strata
