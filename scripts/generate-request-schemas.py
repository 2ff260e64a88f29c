#!/usr/bin/env python3
"""Writes the request schemas' facts that swift-openapi-generator leaves out, from openapi.yaml.

    python3 scripts/generate-request-schemas.py Sources/GatehouseServer/Resources/openapi.yaml > OUT.swift
    python3 scripts/generate-request-schemas.py --generator-input openapi.yaml > IN.yaml   # what the generator reads

swift-openapi-generator turns each JSON request body into a `Codable` struct but drops its
constraints (minLength, maxLength, pattern, whether a required string may be empty). This script
writes them, per operation, as `[ContractField]` lists in `RequestSchemas`, and makes each
generated body type a `ContractRequest` whose `fields` are its document's, so the strict body
reader enforces what the document says. Run by scripts/generate-openapi.sh; the output is
committed and CI checks that regenerating changes nothing.

    python3 scripts/generate-request-schemas.py --responses openapi.yaml > ResponseSchemas.swift

writes what the response schemas say that the generated types cannot (`ResponseSchemas`): the
members written as `null` when they have no value (required and nullable; the generated `Codable`
omits a nil optional, as the contract does for optional members), and the times written with
milliseconds (a `date-time` member whose `pattern` is MILLISECONDS; every other time is written in
whole seconds). Each object component schema's generated type becomes a `ContractBody` with them.
"""
import sys

import yaml

METHODS = ("get", "put", "post", "patch", "delete")


def resolve(node, document, seen=()):
    """The node with local $refs replaced by their targets (what a $ref sits beside wins)."""
    if isinstance(node, dict):
        if "$ref" in node:
            ref = node["$ref"]
            if ref in seen:
                raise ValueError(f"recursive $ref {ref}")
            target = document
            for part in ref[2:].split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            merged = dict(resolve(target, document, seen + (ref,)))
            merged.update({k: resolve(v, document, seen) for k, v in node.items() if k != "$ref"})
            return merged
        return {k: resolve(v, document, seen) for k, v in node.items()}
    if isinstance(node, list):
        return [resolve(v, document, seen) for v in node]
    return node


def type_name(name):
    """swift-openapi-generator's idiomatic spelling of a type from an operationId or component name."""
    parts = [p for p in name.replace("-", "_").split("_") if p]
    return "".join(p[0].upper() + p[1:] for p in parts)


def member_name(name):
    spelled = type_name(name)
    return spelled[0].lower() + spelled[1:]


def swift_string(value):
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def field(name, prop, required):
    types = prop.get("type", "string")
    types = set(types) if isinstance(types, list) else {types}
    string = types <= {"string", "null"} and "string" in types
    args = [f"name: {swift_string(name)}"]
    if not string:
        args.append("kind: .decoded")
        if required:
            args.append("required: true")
    else:
        args.append("kind: .string")
        if required:
            args.append("required: true")
        if "null" in types:
            args.append("nullable: true")
        if prop.get("minLength") is not None:
            args.append(f"minLength: {prop['minLength']}")
        if prop.get("maxLength") is not None:
            args.append(f"maxLength: {prop['maxLength']}")
        if prop.get("pattern") is not None:
            assert '"#' not in prop["pattern"], prop["pattern"]
            args.append(f'pattern: #"{prop["pattern"]}"#')
    return f"ContractField({', '.join(args)})"


def without_not(node):
    """The document with every `not` keyword dropped, for swift-openapi-generator, which skips a member
    whose schema has one (the password's common-password list). Like minLength, it constrains a value,
    not its type; the use case enforces it and the real document, served and tested, keeps it."""
    if isinstance(node, dict):
        return {k: without_not(v) for k, v in node.items() if k != "not"}
    if isinstance(node, list):
        return [without_not(v) for v in node]
    return node


def requests_only(document):
    """The document with each operation's answers replaced by one placeholder: the server writes its
    answers by hand (Server/Contract, the hot ones without an encoder), so the generator's response types
    would be compiled for nothing: four fifths of the generated code."""
    for operations in document["paths"].values():
        for method in METHODS:
            if method in operations:
                operations[method]["responses"] = {"default": {"description": "Written by hand (Server/Contract)."}}
    document.get("components", {}).pop("responses", None)
    return document


# The one pattern a `date-time` response member may carry: RFC 3339 in UTC with milliseconds (the audit log's
# times). A `date-time` member without a pattern is written in whole seconds.
MILLISECONDS = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$"

# swift-openapi-generator's names for component schemas whose idiomatic spelling would shadow a Swift type.
RESERVED = {"Error": "_Error"}


def object_schema(schema, document):
    """An object schema's required names and properties, with allOf's parts merged (or None for another type)."""
    schema = resolve(schema, document)
    if "allOf" in schema:
        required, properties = set(), {}
        for part in schema["allOf"]:
            merged = object_schema(part, document)
            if merged is None:
                return None
            required |= merged[0]
            properties.update(merged[1])
        return required, properties
    types = schema.get("type")
    if types != "object" and "properties" not in schema:
        return None
    return set(schema.get("required", [])), schema.get("properties", {})


def response_rules(schema, document, prefix="", depth=0):
    """The dotted paths (arrays are transparent) of the members written as null when absent, and of the
    times written with milliseconds, in an object schema and the objects it holds."""
    assert depth < 16, prefix
    nulls, milliseconds = [], []
    shape = object_schema(schema, document)
    if shape is None:
        return nulls, milliseconds
    required, properties = shape
    for name, prop in properties.items():
        assert "." not in name, name
        path = prefix + name
        prop = resolve(prop, document)
        while prop.get("type") == "array" and "items" in prop:
            prop = resolve(prop["items"], document)
        types = prop.get("type", [])
        types = set(types) if isinstance(types, list) else {types}
        if name in required and "null" in types:
            nulls.append(path)
        if prop.get("format") == "date-time":
            pattern = prop.get("pattern")
            if pattern == MILLISECONDS:
                milliseconds.append(path)
            else:
                assert pattern is None, f"{path}: a date-time's pattern must be MILLISECONDS or none, not {pattern}"
        inner_nulls, inner_milliseconds = response_rules(prop, document, path + ".", depth + 1)
        nulls += inner_nulls
        milliseconds += inner_milliseconds
    return nulls, milliseconds


def swift_list(items):
    return "[" + ", ".join(swift_string(i) for i in items) + "]"


def responses(document):
    out = []
    out.append("// Generated by scripts/generate-openapi.sh from Sources/GatehouseServer/Resources/openapi.yaml: do not edit.")
    out.append("// What each response schema says that swift-openapi-generator's types leave out.")
    out.append("// swift-format-ignore-file")
    out.append("import GatehouseAPI")
    out.append("")
    out.append("/// Each object component schema's rules for writing its generated type (see ``ResponseRules``).")
    out.append("enum ResponseSchemas {")
    bodies = []
    for name, schema in document["components"]["schemas"].items():
        if object_schema(schema, document) is None:
            continue
        swift_type = f"Components.Schemas.{RESERVED.get(name, type_name(name))}"
        member = member_name(name)
        nulls, milliseconds = response_rules(schema, document)
        out.append(f"    /// `{swift_type}`.")
        out.append(f"    static let {member} = ResponseRules(nulls: {swift_list(nulls)}, milliseconds: {swift_list(milliseconds)})")
        bodies.append((swift_type, member))
    out.append("}")
    for swift_type, member in bodies:
        out.append("")
        out.append(f"extension {swift_type}: ContractBody {{")
        out.append(f"    static var rules: ResponseRules {{ ResponseSchemas.{member} }}")
        out.append("}")
    print("\n".join(out))


def main():
    if sys.argv[1] == "--responses":
        responses(yaml.safe_load(open(sys.argv[2])))
        return
    if sys.argv[1] == "--generator-input":
        document = requests_only(without_not(yaml.safe_load(open(sys.argv[2]))))
        yaml.safe_dump(document, sys.stdout, sort_keys=False, allow_unicode=True)
        return
    path = sys.argv[1]
    document = yaml.safe_load(open(path))
    bodies = []  # (member, swift type, comment, fields, path, method)
    shared = {}
    for route, operations in document["paths"].items():
        for method in METHODS:
            operation = operations.get(method)
            if not operation or "requestBody" not in operation:
                continue
            raw = operation["requestBody"]
            body = resolve(raw, document)
            schema = body.get("content", {}).get("application/json", {}).get("schema")
            if schema is None:
                continue
            if "$ref" in raw:
                component = raw["$ref"].split("/")[-1]
                swift_type = f"Components.RequestBodies.{type_name(component)}.JsonPayload"
                member = member_name(component)
            else:
                swift_type = f"Operations.{type_name(operation['operationId'])}.Input.Body.JsonPayload"
                member = member_name(operation["operationId"])
            required = set(schema.get("required", []))
            fields = [field(n, p, n in required) for n, p in schema.get("properties", {}).items()]
            entry = (member, swift_type, fields)
            if member in shared:
                assert shared[member] == entry, member
            else:
                shared[member] = entry
            bodies.append((member, route, method))

    out = []
    out.append("// Generated by scripts/generate-openapi.sh from Sources/GatehouseServer/Resources/openapi.yaml: do not edit.")
    out.append("// The constraints of each JSON request body's members, which swift-openapi-generator's types leave out.")
    out.append("// swift-format-ignore-file")
    out.append("import GatehouseAPI")
    out.append("")
    out.append("/// Each JSON request body's members as the document declares them, by operation (or shared request body).")
    out.append("enum RequestSchemas {")
    for member, (_, swift_type, fields) in sorted(shared.items()):
        out.append(f"    /// The members of `{swift_type}`.")
        out.append(f"    static let {member}: [ContractField] = [")
        for f in fields:
            out.append(f"        {f},")
        out.append("    ]")
    out.append("")
    out.append("    /// Every operation with a JSON request body: its path template, method and members.")
    out.append("    static let operations: [(path: String, method: String, fields: [ContractField])] = [")
    for member, route, method in bodies:
        out.append(f"        ({swift_string(route)}, {swift_string(method)}, {member}),")
    out.append("    ]")
    out.append("}")
    for member, (_, swift_type, _) in sorted(shared.items()):
        out.append("")
        out.append(f"extension {swift_type}: ContractRequest {{")
        out.append(f"    public static var fields: [ContractField] {{ RequestSchemas.{member} }}")
        out.append("}")
    print("\n".join(out))


main()
