"""app.js as tokens: a small JavaScript tokenizer (strings, templates, regular expressions, comments) and
the bracket structure test_contract.py follows. Enough JavaScript for a page without a build step, no more."""

KEYWORDS_BEFORE_EXPRESSION = {"return", "typeof", "case", "in", "of", "new", "delete", "void", "throw", "else", "do", "await", "yield"}
PUNCTUATORS = sorted(
    ["=>", "===", "!==", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "...", "++", "--", "+=", "-=", "*=", "/=", "**",
     "{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~", "?", ":", "=", "."],
    key=len, reverse=True)


class Token:
    def __init__(self, kind, value, line):
        self.kind, self.value, self.line = kind, value, line

    def __repr__(self):
        return f"{self.kind}:{self.value}@{self.line}"


def tokenize(source):
    tokens, i, line = [], 0, 1
    n = len(source)

    def previous_allows_regex():
        if not tokens:
            return True
        last = tokens[-1]
        if last.kind in ("num", "str", "template", "regex"):
            return False
        if last.kind == "ident":
            return last.value in KEYWORDS_BEFORE_EXPRESSION
        return last.value not in (")", "]", "}")

    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif source.startswith("//", i):
            i = source.find("\n", i) if source.find("\n", i) >= 0 else n
        elif source.startswith("/*", i):
            end = source.index("*/", i + 2) + 2
            line += source.count("\n", i, end)
            i = end
        elif c in "'\"":
            j = i + 1
            while source[j] != c:
                j += 2 if source[j] == "\\" else 1
            tokens.append(Token("str", source[i + 1:j], line))
            i = j + 1
        elif c == "`":
            j, depth = i + 1, 0
            while depth > 0 or source[j] != "`":
                if source[j] == "\\":
                    j += 1
                elif source.startswith("${", j):
                    depth += 1
                    j += 1
                elif source[j] == "}" and depth > 0:
                    depth -= 1
                j += 1
            tokens.append(Token("template", source[i + 1:j], line))
            line += source.count("\n", i, j)
            i = j + 1
        elif c == "/" and previous_allows_regex():
            j, in_class = i + 1, False
            while in_class or source[j] != "/":
                if source[j] == "\\":
                    j += 1
                elif source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                j += 1
            j += 1
            while j < n and source[j].isalpha():
                j += 1
            tokens.append(Token("regex", source[i:j], line))
            i = j
        elif c.isalpha() or c in "_$":
            j = i
            while j < n and (source[j].isalnum() or source[j] in "_$"):
                j += 1
            tokens.append(Token("ident", source[i:j], line))
            i = j
        elif c.isdigit():
            j = i
            while j < n and (source[j].isalnum() or source[j] == "."):
                j += 1
            tokens.append(Token("num", source[i:j], line))
            i = j
        else:
            for p in PUNCTUATORS:
                if source.startswith(p, i):
                    tokens.append(Token("punct", p, line))
                    i += len(p)
                    break
            else:
                raise SyntaxError(f"app.js:{line}: unexpected character {c!r}")
    return tokens


class Source:
    """app.js as tokens, with bracket pairs and the enclosing block of every token."""

    def __init__(self, text):
        self.t = tokenize(text)
        self.match, stack = {}, []
        for k, tok in enumerate(self.t):
            if tok.kind == "punct" and tok.value in "({[":
                stack.append(k)
            elif tok.kind == "punct" and tok.value in ")}]":
                opener = stack.pop()
                self.match[opener], self.match[k] = k, opener
        self.functions = self._functions()

    def v(self, k):
        return self.t[k].value if 0 <= k < len(self.t) else None

    def is_punct(self, k, value):
        return 0 <= k < len(self.t) and self.t[k].kind == "punct" and self.t[k].value == value

    def block_end(self, k):
        """The index of the `}` closing the innermost block around token k (or the end)."""
        depth = 0
        for j in range(k, len(self.t)):
            if self.is_punct(j, "{") or self.is_punct(j, "(") or self.is_punct(j, "["):
                depth += 1
            elif self.is_punct(j, "}") or self.is_punct(j, ")") or self.is_punct(j, "]"):
                if depth == 0 and self.v(j) == "}":
                    return j
                depth = max(0, depth - 1)
        return len(self.t)

    def _functions(self):
        """`function name(params) { body }` declarations: name -> (params, body start, body end)."""
        found = {}
        for k, tok in enumerate(self.t):
            if tok.kind == "ident" and tok.value == "function" and self.t[k + 1].kind == "ident" and self.is_punct(k + 2, "("):
                close = self.match[k + 2]
                params = [self.v(j) for j in range(k + 3, close) if self.t[j].kind == "ident"]
                found[self.v(k + 1)] = (params, close + 1, self.match[close + 1])
        return found

    def enclosing_function(self, k):
        best = None
        for name, (_, start, end) in self.functions.items():
            if start < k < end and (best is None or start > self.functions[best][1]):
                best = name
        return best

    def arguments(self, open_paren):
        """The argument token ranges [(start, end)] of the call whose `(` is at open_paren."""
        close, args, start, k = self.match[open_paren], [], open_paren + 1, open_paren + 1
        while k < close:
            if self.v(k) in ("(", "{", "[") and self.t[k].kind == "punct":
                k = self.match[k] + 1
                continue
            if self.is_punct(k, ","):
                args.append((start, k))
                start = k + 1
            k += 1
        if start < close:
            args.append((start, close))
        return args

    def object_keys(self, start, end):
        """Top-level keys of the object literal spanning [start, end) (`{ ... }`)."""
        if not (self.is_punct(start, "{") and self.match[start] == end - 1):
            return None
        keys = []
        for a, _ in self.arguments(start):
            if self.t[a].kind in ("ident", "str") and (self.is_punct(a + 1, ":") or self.is_punct(a + 1, ",") or a + 1 == end - 1):
                keys.append(self.v(a))
            else:
                raise ValueError(f"app.js:{self.t[a].line}: an object key the checker cannot read")
        return keys
