// defineMaterial{...} blocks of Grimrock's Lua scripts, read as data and never executed: a
// tokenizer for the Lua a material file is written in (comments short and long, strings in single
// or double quotes and long brackets, numbers, names, punctuation) and a reader of table
// constructors whose fields are literals. Anything else, whole statements and fields whose value
// is an expression, is skipped (docs/formats/grimrock.md).
#include <algorithm>
#include <cctype>
#include <map>

#include "core/text.h"
#include "grimrock/grimrock.h"

namespace horde::grimrock {

namespace {

enum class Tok : uint8_t { End, Name, String, Number, Punct, Bad };

struct Token {
    Tok kind = Tok::End;
    std::string text; // names, decoded strings, numbers as written, one punctuation character
    size_t line = 1;
};

class Lexer {
  public:
    explicit Lexer(std::string_view src) : s_(src) {}

    Token next() {
        skipSpaceAndComments();
        Token t;
        t.line = line_;
        if (at_ >= s_.size()) return t;
        const char c = s_[at_];
        if (std::isalpha(uc(c)) || c == '_') {
            size_t start = at_;
            while (at_ < s_.size() && (std::isalnum(uc(s_[at_])) || s_[at_] == '_')) ++at_;
            t.kind = Tok::Name;
            t.text = s_.substr(start, at_ - start);
        } else if (std::isdigit(uc(c)) || (c == '.' && at_ + 1 < s_.size() && std::isdigit(uc(s_[at_ + 1])))) {
            size_t start = at_;
            while (at_ < s_.size() && (std::isalnum(uc(s_[at_])) || s_[at_] == '.' ||
                                       ((s_[at_] == '-' || s_[at_] == '+') && (s_[at_ - 1] == 'e' || s_[at_ - 1] == 'E'))))
                ++at_;
            t.kind = Tok::Number;
            t.text = s_.substr(start, at_ - start);
        } else if (c == '"' || c == '\'') {
            t.kind = quoted(c, t.text) ? Tok::String : Tok::Bad;
        } else if (c == '[' && longBracketLevel() >= 0) {
            t.kind = longBracket(t.text) ? Tok::String : Tok::Bad;
        } else {
            t.kind = Tok::Punct;
            t.text = std::string(1, c);
            ++at_;
        }
        return t;
    }

  private:
    static unsigned char uc(char c) { return static_cast<unsigned char>(c); }

    void skipSpaceAndComments() {
        while (at_ < s_.size()) {
            const char c = s_[at_];
            if (c == '\n') ++line_, ++at_;
            else if (std::isspace(uc(c))) ++at_;
            else if (s_.compare(at_, 2, "--") == 0) {
                at_ += 2;
                std::string ignored;
                if (at_ < s_.size() && s_[at_] == '[' && longBracketLevel() >= 0) longBracket(ignored);
                else
                    while (at_ < s_.size() && s_[at_] != '\n') ++at_;
            } else return;
        }
    }

    // At '[': the level of a long bracket opening here ([[ is 0, [==[ is 2), or -1.
    int longBracketLevel() const {
        size_t p = at_ + 1;
        while (p < s_.size() && s_[p] == '=') ++p;
        return p < s_.size() && s_[p] == '[' ? int(p - at_ - 1) : -1;
    }

    bool longBracket(std::string& out) {
        const int level = longBracketLevel();
        at_ += size_t(level) + 2;
        const std::string close = "]" + std::string(size_t(level), '=') + "]";
        size_t end = s_.find(close, at_);
        if (end == std::string_view::npos) {
            at_ = s_.size();
            return false;
        }
        out = s_.substr(at_, end - at_);
        for (char ch : out) line_ += ch == '\n';
        at_ = end + close.size();
        return true;
    }

    bool quoted(char quote, std::string& out) {
        ++at_;
        while (at_ < s_.size()) {
            char c = s_[at_++];
            if (c == quote) return true;
            if (c == '\n') return false; // Lua strings in quotes end on their line
            if (c != '\\' || at_ >= s_.size()) {
                out += c;
                continue;
            }
            char e = s_[at_++];
            switch (e) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case '\n': out += '\n'; ++line_; break;
            default: out += e; break; // \\ \" \' and the rest as themselves
            }
        }
        return false;
    }

    std::string_view s_;
    size_t at_ = 0;
    size_t line_ = 1;
};

struct Parser {
    Parser(std::string_view text, const std::string& name, std::vector<std::string>& out)
        : lex(text), file(name), warnings(out) {
        advance();
    }

    Lexer lex;
    Token tok;
    std::string file;
    std::vector<std::string>& warnings;

    void advance() { tok = lex.next(); }
    bool punct(char c) const { return tok.kind == Tok::Punct && tok.text[0] == c; }

    // Reads `{ key = literal, ... }` into `fields`; fields whose value is not a literal are left
    // out. False when the block does not close.
    bool table(std::map<std::string, Token>& fields) {
        advance(); // '{'
        while (!punct('}')) {
            if (tok.kind == Tok::End || tok.kind == Tok::Bad) return false;
            if (punct(',') || punct(';')) {
                advance();
                continue;
            }
            if (tok.kind != Tok::Name) { // positional values and [expr] keys: not material data
                if (!skipValue()) return false;
                continue;
            }
            Token key = tok;
            advance();
            if (!punct('=')) continue;
            advance();
            Token value = tok;
            const bool literal = value.kind == Tok::String || value.kind == Tok::Number ||
                                 (value.kind == Tok::Name && (value.text == "true" || value.text == "false"));
            bool alone = false; // a literal not starting an expression ("a" .. b)
            if (literal) {
                advance();
                alone = punct(',') || punct(';') || punct('}');
            }
            if (!skipValue()) return false;
            if (literal && alone) fields[key.text] = value;
            else warnings.push_back(file + ":" + std::to_string(key.line) + ": '" + key.text + "' is not a literal; skipped");
        }
        advance();
        return true;
    }

    // Skips one field value: up to the ',' ';' or '}' that ends it at this table's depth.
    bool skipValue() {
        int depth = 0;
        while (true) {
            if (tok.kind == Tok::End || tok.kind == Tok::Bad) return false;
            if (depth == 0 && (punct(',') || punct(';') || punct('}'))) return true;
            if (punct('{') || punct('(')) ++depth;
            else if (punct('}') || punct(')')) --depth;
            advance();
        }
    }
};

Material toMaterial(const std::map<std::string, Token>& f) {
    Material m;
    m.name = f.at("name").text;
    const std::pair<const char*, TextureSlot> maps[] = {{"diffuseMap", TextureSlot::Base},
                                                        {"normalMap", TextureSlot::Normal},
                                                        {"specularMap", TextureSlot::Specular},
                                                        {"emissiveMap", TextureSlot::Emissive}};
    for (auto [key, slot] : maps)
        if (auto it = f.find(key); it != f.end() && it->second.kind == Tok::String && !it->second.text.empty())
            m.textures.push_back({slot, it->second.text, {}, nullptr});
    auto flag = [&](const char* key) {
        auto it = f.find(key);
        return it != f.end() && it->second.kind == Tok::Name && it->second.text == "true";
    };
    m.doubleSided = flag("doubleSided");
    if (flag("alphaTest")) m.alpha = AlphaMode::Mask;
    if (auto it = f.find("blendMode"); it != f.end() && it->second.kind == Tok::String && asciiLower(it->second.text) != "opaque")
        m.alpha = AlphaMode::Blend;
    return m;
}

} // namespace

MaterialDefinitions readMaterialDefinitions(const std::string& file, std::string_view text) {
    MaterialDefinitions out;
    Parser p(text, file, out.warnings);
    // Only top-level statements define materials at load: a defineMaterial inside a table, a call
    // or a function body runs (if ever) when the game calls it, so those are skipped.
    int depth = 0;
    while (p.tok.kind != Tok::End) {
        if (p.tok.kind == Tok::Bad) {
            out.warnings.push_back(file + ":" + std::to_string(p.tok.line) + ": unterminated string or comment; the rest is skipped");
            break;
        }
        const std::string& w = p.tok.text;
        if (p.tok.kind == Tok::Punct && (w == "{" || w == "(")) ++depth;
        else if (p.tok.kind == Tok::Punct && (w == "}" || w == ")")) depth = std::max(depth - 1, 0);
        else if (p.tok.kind == Tok::Name && (w == "function" || w == "do" || w == "if" || w == "repeat")) ++depth;
        else if (p.tok.kind == Tok::Name && (w == "end" || w == "until")) depth = std::max(depth - 1, 0);
        if (depth > 0 || !(p.tok.kind == Tok::Name && w == "defineMaterial")) {
            p.advance();
            continue;
        }
        const size_t line = p.tok.line;
        p.advance();
        const bool paren = p.punct('(');
        if (paren) p.advance();
        if (!p.punct('{')) continue; // a mention, not a call with a table
        std::map<std::string, Token> fields;
        if (!p.table(fields)) {
            out.warnings.push_back(file + ":" + std::to_string(line) + ": defineMaterial block does not close; the rest is skipped");
            break;
        }
        auto name = fields.find("name");
        if (name == fields.end() || name->second.kind != Tok::String) {
            out.warnings.push_back(file + ":" + std::to_string(line) + ": defineMaterial without a literal name; skipped");
            continue;
        }
        Material m = toMaterial(fields);
        // The game defines materials in script order: a later definition of a name replaces it.
        bool replaced = false;
        for (Material& have : out.materials)
            if (have.name == m.name) have = m, replaced = true;
        if (!replaced) out.materials.push_back(std::move(m));
    }
    return out;
}

} // namespace horde::grimrock
