#!/usr/bin/env python3
"""Checks what the contract tests collected against the OpenAPI document.

Usage: validate_contract.py OPENAPI.yaml SAMPLES.json

- every documented operation was called, and every served route is documented;
- every answer's status is documented for its operation, its content type is one the document
  gives, and a JSON body validates against the documented schema (jsonschema, draft 2020-12);
- every request type's fields (names, required, minLength, maxLength, pattern, nullability) equal the document's
  request schema, and every documented JSON request body has a request type.
Exits 1 listing every disagreement.
"""
import json
import sys

import yaml
from jsonschema import Draft202012Validator

METHODS = ("get", "put", "post", "patch", "delete")


def resolve(node, document, seen=()):
    """The node with every local $ref replaced by what it points to (recursively)."""
    if isinstance(node, dict):
        if "$ref" in node:
            ref = node["$ref"]
            assert ref.startswith("#/"), ref
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


def main():
    document = yaml.safe_load(open(sys.argv[1]))
    collected = json.load(open(sys.argv[2]))
    problems = []
    paths = document["paths"]
    documented = {(p, m) for p, ops in paths.items() for m in ops if m in METHODS}

    called = {(s["path"], s["method"]) for s in collected["samples"]}
    for path, method in sorted(documented - called):
        problems.append(f"{method.upper()} {path}: documented but never called by the contract tests")
    served = {(r["path"], r["method"]) for r in collected["served"]}
    for path, method in sorted(served - documented):
        problems.append(f"{method.upper()} {path}: served but not documented")

    exercised = {}
    for sample in collected["samples"]:
        where = f'{sample["method"].upper()} {sample["path"]} -> {sample["status"]}'
        operation = paths.get(sample["path"], {}).get(sample["method"])
        if operation is None:
            problems.append(f"{where}: no such operation in the document")
            continue
        responses = operation["responses"]
        response = responses.get(str(sample["status"])) or responses.get("default")
        if response is None:
            problems.append(f"{where}: status not documented (documented: {sorted(responses)})")
            continue
        exercised.setdefault((sample["path"], sample["method"]), set()).add(str(sample["status"]))
        response = resolve(response, document)
        content = response.get("content", {})
        media = sample["content_type"].split(";")[0].strip().lower()
        if not content:
            if sample["body"]:
                problems.append(f"{where}: documented without a body, answered {sample['content_type']!r} {sample['body'][:80]!r}")
            continue
        if media not in {m.lower() for m in content}:
            problems.append(f"{where}: content type {media!r} not documented ({sorted(content)})")
            continue
        schema = next((c.get("schema") for m, c in content.items() if m.lower() == media), None)
        if media.endswith("json") and schema is not None:
            try:
                body = json.loads(sample["body"])
            except ValueError as error:
                problems.append(f"{where}: body is not JSON ({error})")
                continue
            for error in Draft202012Validator(schema).iter_errors(body):
                location = "/".join(str(p) for p in error.absolute_path) or "(body)"
                problems.append(f"{where}: {location}: {error.message}")

    declared = {(r["path"], r["method"]): r["fields"] for r in collected["requests"]}
    for (path, method) in sorted(documented):
        body = resolve(paths[path][method].get("requestBody", {}), document)
        schema = body.get("content", {}).get("application/json", {}).get("schema")
        where = f"{method.upper()} {path} request"
        if schema is None:
            if (path, method) in declared:
                problems.append(f"{where}: a request type is declared but the document has no JSON body")
            continue
        fields = declared.get((path, method))
        if fields is None:
            problems.append(f"{where}: documented JSON body without a request type")
            continue
        properties = schema.get("properties", {})
        names = {f["name"] for f in fields}
        if names != set(properties):
            problems.append(f"{where}: fields {sorted(names)} but the document has {sorted(properties)}")
        required = {f["name"] for f in fields if f["required"]}
        if required != set(schema.get("required", [])):
            problems.append(f"{where}: required {sorted(required)} but the document requires {sorted(schema.get('required', []))}")
        for field in fields:
            prop = properties.get(field["name"])
            if prop is None:
                continue
            if prop.get("maxLength") != field["max_length"]:
                problems.append(f"{where}: '{field['name']}' maxLength {field['max_length']} but the document says {prop.get('maxLength')}")
            for key, fact in (("minLength", "min_length"), ("pattern", "pattern")):
                if field.get(fact) != prop.get(key):
                    problems.append(f"{where}: '{field['name']}' {key} {field.get(fact)!r} but the document says {prop.get(key)!r}")
            types = prop.get("type", "string")
            types = set(types) if isinstance(types, list) else {types}
            if field.get("string") != ("string" in types):
                problems.append(f"{where}: '{field['name']}' is {'' if field.get('string') else 'not '}read as a string but the document's type is {sorted(t for t in types if t)}")
            if field["nullable"] and "null" not in types:
                problems.append(f"{where}: '{field['name']}' takes null but the document's type is {sorted(t for t in types if t)}")
            if field["required"] and "null" in types:
                problems.append(f"{where}: '{field['name']}' is required but the document allows null")

    for (path, method), statuses in sorted(exercised.items()):
        untested = sorted(set(paths[path][method]["responses"]) - statuses)
        if untested:
            print(f"note: {method.upper()} {path}: documented statuses not provoked here: {', '.join(untested)}")
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"contract: {len(collected['samples'])} answers and {len(declared)} request types agree with the document")


main()
