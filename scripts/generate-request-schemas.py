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


def main():
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
