#!/usr/bin/env python3
"""The web page's wire fields against the OpenAPI document: every JSON field app.js sends to the API or
reads from its answers must be a documented property of the matching schema, and every request must
carry the fields the document requires. A field renamed in the document (or in app.js) fails this.

    python3 Tests/browser/test_contract.py                     # exits 1 and lists every mismatch
    python3 Tests/browser/test_contract.py --openapi X.yaml --app Y.js   # against edited copies

No browser and no server: it reads app.js with a small JavaScript tokenizer and follows its code, so the
field list is what the page really does, not a list kept by hand:

  * the fetch helper is the one function that calls fetch(); its parameters for the method, the path and
    the body are found from how it calls fetch (fetch(path, {method, body: JSON.stringify(body)}));
  * wrappers are functions that pass their own parameters on to the helper or to another wrapper
    (authed(method, path, body), exchange(path, body)); every call with a literal method and path,
    directly or through wrappers, is an API call;
  * a request's fields are the keys of the object literal passed as the body, or of the `const x = {...}`
    it names plus the later `x.key = ...` assignments;
  * a response's fields are the property chains read from where the answer goes: a `const x = await ...`
    (to the end of its block), a function it is passed to (that function's parameter), through aliases
    (`const err = (data && data.error) || {}`) and array callbacks (`(me.identities || []).map((i) => i.provider)`);
    a wrapper that returns the answer hands it to its caller;
  * reads in the fetch helper itself are of error bodies, checked against every documented error schema;
  * a path written as a template literal (`/me/passkeys/${encodeURIComponent(id)}`) matches the document's path
    with a parameter in that segment (`/me/passkeys/{id}`).

One exception: a schema the document marks `x-webauthn` is WebAuthn's own JSON form (PublicKeyCredentialRequestOptionsJSON,
...CreationOptionsJSON, RegistrationResponseJSON, AuthenticationResponseJSON), which app.js passes whole between the
server and the browser (PublicKeyCredential.parse*OptionsFromJSON and credential.toJSON(), or app.js's fallback
converter, which reads WebAuthn's field names, not Gatehouse's): its fields are not followed, and its required
members are the browser's to send; fields app.js adds to one (`body.name = ...`) are checked like any other.

Anything it cannot follow (an answer used some other way, a body that is not an object literal or a
named one, a documented path string that no API call accounts for) is a failure too, so a change in
app.js's shape asks for this checker to be taught rather than passing silently.
"""
import argparse
import os
import re
import sys

from js_source import Source
from openapi_document import Document

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPENAPI = os.path.join(ROOT, "Sources", "GatehouseServer", "Resources", "openapi.yaml")
APP_JS = os.path.join(ROOT, "Sources", "GatehouseServer", "Resources", "Web", "app.js")

ARRAY_CALLBACKS = {"map", "forEach", "filter", "some", "every", "find", "flatMap"}
BUILT_IN_MEMBERS = {"length", "map", "forEach", "filter", "some", "every", "find", "flatMap", "join", "includes", "indexOf",
                    "slice", "trim", "toString", "toLowerCase", "toUpperCase", "replace", "split", "startsWith", "endsWith"}


# ---------- following app.js ----------

class Checker:
    def __init__(self, source, document):
        self.s, self.doc = source, document
        self.problems, self.checked = [], []
        self.helper = self._fetch_helper()
        self.api_functions = {self.helper[0]: self.helper[1]}
        self._find_wrappers()

    def fail(self, k, message):
        line = self.s.t[k].line if 0 <= k < len(self.s.t) else "?"
        self.problems.append(f"app.js:{line}: {message}")

    def calls_to(self, name, start=0, end=None):
        end = len(self.s.t) if end is None else end
        for k in range(start, end):
            if self.s.t[k].kind == "ident" and self.s.v(k) == name and self.s.is_punct(k + 1, "(") and self.s.v(k - 1) not in (".", "function"):
                yield k

    def _fetch_helper(self):
        sites = list(self.calls_to("fetch"))
        if len(sites) != 1:
            raise SystemExit(f"expected exactly one fetch() call in app.js (the API helper), found {len(sites)}")
        site = sites[0]
        name = self.s.enclosing_function(site)
        params, _, _ = self.s.functions[name]
        args = self.s.arguments(site + 1)
        path = self.s.v(args[0][0])
        options = args[1]
        slots = {"path": params.index(path)}
        opts = self.s.t[options[0]:options[1]]
        for j, tok in enumerate(opts):
            # `{ method, ... }` or `{ method: m, ... }`, and `body: ... JSON.stringify(body)`.
            if tok.kind == "ident" and tok.value == "method" and j + 1 < len(opts) and opts[j - 1].value in ("{", ","):
                value = tok.value if opts[j + 1].value in (",", "}") else opts[j + 2].value
                if value in params:
                    slots["method"] = params.index(value)
            if tok.value == "stringify" and opts[j + 2].value in params:
                slots["body"] = params.index(opts[j + 2].value)
        if set(slots) != {"method", "path", "body"}:
            raise SystemExit(f"cannot find the method, path and body parameters of {name}() from its fetch() call")
        return name, slots

    def _find_wrappers(self):
        """Functions passing their own parameters into an API function's method, path or body."""
        changed = True
        while changed:
            changed = False
            for name, (params, start, end) in self.s.functions.items():
                if name in self.api_functions:
                    continue
                for callee in list(self.api_functions):
                    for k in self.calls_to(callee, start, end):
                        if any(b == a + 1 and self.s.v(a) in params for a, b in self.slot_args(callee, k).values()):
                            self.api_functions[name] = {"params": params}
                            changed = True
                            break
                    if name in self.api_functions:
                        break

    def slot_args(self, callee, k):
        """{slot: (start, end)} of the method, path and body arguments of a call to an API function."""
        args = self.s.arguments(k + 1)
        spec = self.api_functions[callee]
        if "params" not in spec:
            return {slot: args[i] for slot, i in spec.items() if i < len(args)}
        # A wrapper: its slots are wherever its own parameters land in its inner API calls.
        slots = {}
        params, start, end = self.s.functions[callee]
        for inner_callee in self.api_functions:
            if inner_callee == callee:
                continue
            for inner in self.calls_to(inner_callee, start, end):
                for slot, (a, b) in self.slot_args(inner_callee, inner).items():
                    if b == a + 1 and self.s.v(a) in params and params.index(self.s.v(a)) < len(args):
                        slots[slot] = args[params.index(self.s.v(a))]
        return slots

    # ----- API calls -----

    def endpoint_calls(self):
        """Every (method, path, body range, chain of call sites from outer to inner) with literal method and path."""
        found = []
        for callee in self.api_functions:
            for k in self.calls_to(callee):
                if self.s.enclosing_function(k) in self.api_functions and self.s.enclosing_function(k) != self.helper[0]:
                    continue  # inside a wrapper: reached through the wrapper's own callers
                for call in self.expand(callee, k, {}, [k]):
                    key = (call[0], call[1], call[3][0])
                    if key not in {(m, p, c[0]) for m, p, _, c in found}:
                        found.append(call)
        return found

    def expand(self, callee, k, bound, chain):
        """Follows a call into wrappers down to the fetch helper, carrying the literal arguments."""
        args = self.s.arguments(k + 1)

        def value(rng):
            a, b = rng
            if b == a + 1 and self.s.v(a) in bound:
                return bound[self.s.v(a)]
            return rng

        if callee == self.helper[0]:
            slots = {slot: value(args[i]) if i < len(args) else None for slot, i in self.helper[1].items()}
            method, path = slots["method"], slots["path"]
            if not all(r and r[1] == r[0] + 1 and self.s.t[r[0]].kind in kinds for r, kinds in ((method, ("str",)), (path, ("str", "template")))):
                self.fail(k, "an API call whose method or path the checker cannot read")
                return []
            # A template literal's substitutions stand for path parameters: `/me/passkeys/${id}` is /me/passkeys/{}.
            path_text = re.sub(r"\$\{[^}]*\}", "{}", self.s.v(path[0]))
            return [(self.s.v(method[0]), path_text, slots["body"], chain)]
        params, start, end = self.s.functions[callee]
        # A parameter the caller leaves out is `undefined` inside the wrapper.
        inner_bound = {p: value(args[i]) if i < len(args) else None for i, p in enumerate(params)}
        out = []
        for inner_callee in self.api_functions:
            for inner in self.calls_to(inner_callee, start, end):
                out += self.expand(inner_callee, inner, inner_bound, chain + [inner])
        return out

    def request_keys(self, body, at, opaque=False):
        """(always-sent keys, sometimes-sent keys) of a request body argument, or None if there is none. An `opaque` body
        (WebAuthn's JSON) may be any expression, or a `const` set to one: only the keys assigned to it later count."""
        if body is None:
            return None
        a, b = body
        if self.s.v(a) == "undefined" and b == a + 1:
            return None
        keys = self.s.object_keys(a, b)
        if keys is not None:
            return keys, []
        if b == a + 1 and self.s.t[a].kind == "ident":
            name = self.s.v(a)
            for k in range(a - 1, -1, -1):
                if self.s.v(k) in ("const", "let", "var") and self.s.v(k + 1) == name and self.s.is_punct(k + 2, "="):
                    literal = self.s.object_keys(k + 3, self.s.match.get(k + 3, k + 3) + 1)
                    if literal is None and not opaque:
                        break
                    later = [self.s.v(j + 2) for j in range(k, a) if self.s.v(j) == name and self.s.is_punct(j + 1, ".")
                             and self.s.is_punct(j + 3, "=")]
                    return literal or [], later
        if opaque:
            return [], []
        self.fail(at, "a request body that is neither an object literal nor a `const` naming one")
        return None

    def answer_use(self, chain):
        """Where an endpoint's answer goes: ('bind', name, start, end) or ('discard',) or ('unknown', k)."""
        for k in reversed(chain):
            p = k - 1
            if self.s.v(p) == "await":
                p -= 1
            close = self.s.match[k + 1]
            if self.s.v(p) == "return":
                continue  # the wrapper hands the answer to its caller: look at the next call out
            if self.s.is_punct(p, "=") and self.s.t[p - 1].kind == "ident":
                return ("bind", self.s.v(p - 1), close, self.s.block_end(close))
            if self.s.is_punct(p, "(") and self.s.v(p - 1) in self.s.functions and self.s.match[p] == close + 1:
                params, start, end = self.s.functions[self.s.v(p - 1)]
                return ("bind", params[0], start, end)
            if self.s.is_punct(close + 1, ";") and (self.s.v(p) in (";", "{", "}", ")", "else")):
                return ("discard",)
            return ("unknown", k)
        return ("unknown", chain[0])

    # ----- reading answers -----

    def reads(self, name, start, end, schemas, label, depth=0):
        """Checks every property chain read from `name` in [start, end) against one of `schemas`."""
        k = start
        while k < end:
            tok = self.s.t[k]
            if tok.kind == "ident" and tok.value == name and self.s.v(k - 1) != "." and not self.s.is_punct(k - 1, "?."):
                chain, j = [], k + 1
                while (self.s.is_punct(j, ".") or self.s.is_punct(j, "?.")) and self.s.t[j + 1].kind == "ident":
                    chain.append(self.s.v(j + 1))
                    j += 2
                self.check_chain(name, chain, schemas, label, k, j, end, depth)
                k = j
                continue
            k += 1

    def check_chain(self, name, chain, schemas, label, at, after, end, depth):
        problems_for = []
        for status, schema in schemas:
            node, ok, j = schema, True, 0
            for j, prop in enumerate(chain):
                kind = Document.kind(node)
                if kind == "object" and prop in node.get("properties", {}):
                    node = self.doc.schema(node["properties"][prop])
                    continue
                if kind != "object" and prop in BUILT_IN_MEMBERS:
                    break
                ok = False
                problems_for.append(f"{status}: {prop!r} is not a property of {'.'.join([name] + chain[:j])}")
                break
            if ok:
                if chain:
                    self.checked.append(f"{label} reads {'.'.join(chain)}")
                if Document.kind(node) == "array" and chain:
                    self.array_callback(node, label + " " + ".".join(chain) + "[]", after, end, depth)
                self.alias(at, chain, node, label, depth)
                return
        self.fail(at, f"{label}: reads {'.'.join([name] + chain)}, which the document does not have ({'; '.join(problems_for)})")

    def array_callback(self, array_schema, label, after, end, depth):
        j = after
        while j < end and self.s.v(j) in ("||", "??", "[", "]", ")"):
            j += 1
        if self.s.is_punct(j, ".") and self.s.v(j + 1) in ARRAY_CALLBACKS and self.s.is_punct(j + 2, "("):
            close = self.s.match[j + 2]
            k = j + 3
            param = self.s.v(k + 1) if self.s.is_punct(k, "(") else self.s.v(k)
            arrow = k + 3 if self.s.is_punct(k, "(") else k + 1
            if self.s.is_punct(arrow, "=>"):
                items = self.doc.schema(array_schema.get("items"))
                self.reads(param, arrow + 1, close, [("item", items)], label, depth + 1)

    def alias(self, at, chain, node, label, depth):
        """`const x = (name && name.a) || {}` makes x an alias of name.a (the statement's last chain) for the
        rest of the block: the statement may hold only chains of `name`, parentheses, `&&`, `||` and `{}`/`[]`."""
        root = self.s.v(at)
        k = at
        while k > 0 and (self.s.v(k - 1) in ("(", "&&", "||", ".") and self.s.t[k - 1].kind == "punct" or self.s.v(k - 1) == root
                         or self.s.t[k - 1].kind == "ident" and self.s.is_punct(k - 2, ".")):
            k -= 1
        if not (self.s.is_punct(k - 1, "=") and self.s.v(k - 3) in ("const", "let", "var") and chain and depth < 5):
            return
        end = k
        while end < len(self.s.t) and not self.s.is_punct(end, ";"):
            end += 1
        later = [j for j in range(at + 1, end) if self.s.v(j) == root and self.s.v(j - 1) != "."]
        allowed = {"(", ")", "&&", "||", "{", "}", "[", "]", "."}
        if later or any(self.s.t[j].kind == "punct" and self.s.v(j) not in allowed for j in range(k, end)):
            return
        name = self.s.v(k - 2)
        self.reads(name, end, self.s.block_end(end), [("alias", node)], f"{label} (as {name})", depth + 1)

    # ----- the whole check -----

    def run(self):
        calls = self.endpoint_calls()
        accounted = set()
        for method, path, body, chain in calls:
            label = f"{method} {path}"
            outer = chain[0]
            accounted.update(j for j in range(outer, self.s.match[outer + 1] + 1))
            operation = self.doc.operation(method, path)
            if operation is None:
                self.fail(outer, f"{label} is not in the OpenAPI document")
                continue
            schema, required_body = self.doc.request_schema(method, path)
            opaque = bool(schema and schema.get("x-webauthn"))
            keys = self.request_keys(body, outer, opaque=opaque)
            if keys is None:
                if required_body:
                    self.fail(outer, f"{label}: sends no body; the document requires one")
            elif schema is None:
                self.fail(outer, f"{label}: sends a JSON body; the document describes none")
            else:
                always, sometimes = keys
                documented = set(schema.get("properties", {}))
                for key in always + sometimes:
                    if key in documented:
                        self.checked.append(f"{label} sends {key}")
                    else:
                        self.fail(outer, f"{label}: sends {key!r}, not a documented field ({', '.join(sorted(documented))})")
                for key in [] if opaque else schema.get("required", []):
                    if key not in always:
                        self.fail(outer, f"{label}: does not always send the required field {key!r}")
            use = self.answer_use(chain)
            if use[0] == "bind":
                _, name, start, end = use
                schemas = self.doc.response_schemas(method, path, success=True)
                if not schemas:
                    self.fail(outer, f"{label}: app.js reads the answer; the document gives it no JSON body")
                if any(s.get("x-webauthn") for _, s in schemas):
                    self.checked.append(f"{label} passes the answer (WebAuthn's JSON) on whole")
                    continue
                self.reads(name, start, end, schemas, label)
            elif use[0] == "unknown":
                self.fail(use[1], f"{label}: the checker cannot tell what app.js does with the answer")
        self.error_reads(calls)
        documented_paths = set(self.doc.root.get("paths") or {}) - {"/"}
        for k, tok in enumerate(self.s.t):
            if tok.kind == "str" and tok.value in documented_paths and k not in accounted:
                self.fail(k, f"the documented path {tok.value!r} is used outside any API call the checker follows")
        return calls

    def error_reads(self, calls):
        """Reads of the error body inside the fetch helper, against every documented error schema of the calls made."""
        name = self.helper[0]
        _, start, end = self.s.functions[name]
        body_var = None
        for k in range(start, end):
            if self.s.v(k) == "json" and self.s.is_punct(k - 1, ".") and self.s.is_punct(k + 1, "("):
                j = k - 2
                while self.s.v(j) in ("response", "await") or self.s.t[j].kind == "ident" and self.s.v(j - 1) == "await":
                    j -= 1
                if self.s.is_punct(j, "="):
                    body_var = self.s.v(j - 1)
        if body_var is None:
            self.fail(start, f"cannot find where {name}() parses the answer (`x = await response.json()`)")
            return
        distinct = {}
        for method, path, _, _ in calls:
            for status, schema in self.doc.response_schemas(method, path, success=False):
                distinct.setdefault(repr(schema), (schema, []))[1].append(f"{method} {path} {status}")
        if not distinct:
            self.fail(start, "the document gives no error bodies for the calls app.js makes")
            return
        # The helper reads every error alike, so its reads must hold for each documented error schema.
        for schema, answers in distinct.values():
            label = f"error body ({answers[0]}" + (f" and {len(answers) - 1} more)" if len(answers) > 1 else ")")
            self.reads(body_var, start, end, [("error", schema)], label)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--openapi", default=os.environ.get("GATEHOUSE_OPENAPI_PATH", OPENAPI))
    parser.add_argument("--app", default=APP_JS)
    parser.add_argument("--verbose", action="store_true", help="list every field checked")
    options = parser.parse_args(argv)
    with open(options.app, encoding="utf-8") as handle:
        source = Source(handle.read())
    document = Document(options.openapi)
    checker = Checker(source, document)
    calls = checker.run()
    if options.verbose:
        print("\n".join(sorted(set(checker.checked))))
    endpoints = sorted({f"{m} {p}" for m, p, _, _ in calls})
    print(f"app.js: {len(endpoints)} endpoints, {len(set(checker.checked))} field uses checked against {os.path.relpath(options.openapi, ROOT)}")
    if len(endpoints) < 10:
        checker.problems.append(f"only {len(endpoints)} endpoints found in app.js; the checker has lost track of its API calls")
    if checker.problems:
        print("\n".join(["FAIL: app.js and the OpenAPI document disagree:"] + ["  " + p for p in dict.fromkeys(checker.problems)]))
        return 1
    print("ok: every field app.js sends or reads is documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
