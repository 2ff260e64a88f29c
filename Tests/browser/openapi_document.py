"""The OpenAPI document as test_contract.py needs it: operations, `$ref`s followed, `allOf` merged."""
import re

import yaml


class Document:
    def __init__(self, path):
        with open(path, encoding="utf-8") as handle:
            self.root = yaml.safe_load(handle)

    def resolve(self, node):
        while isinstance(node, dict) and "$ref" in node:
            target = self.root
            for key in node["$ref"][2:].split("/"):
                target = target[key]
            node = target
        return node or {}

    def schema(self, node):
        node = dict(self.resolve(node))
        parts = node.pop("allOf", None)
        if parts:
            props, required = dict(node.get("properties", {})), list(node.get("required", []))
            for part in map(self.schema, parts):
                props.update({k: v for k, v in part.get("properties", {}).items() if k not in props})
                required += part.get("required", [])
                for key, value in part.items():
                    node.setdefault(key, value)
            node["properties"], node["required"] = props, sorted(set(required))
        return node

    @staticmethod
    def shape(path):
        """A path with its parameters blanked (`/me/passkeys/{id}` and `/me/passkeys/{}` alike: `/me/passkeys/{}`)."""
        return re.sub(r"\{[^}/]*\}", "{}", path)

    def path_item(self, path):
        """The document's path item for `path`, whose `{}` segments (a template literal's `${...}`) match its parameters."""
        paths = self.root.get("paths") or {}
        if path in paths:
            return paths[path]
        return next((item for key, item in paths.items() if self.shape(key) == self.shape(path)), None)

    def operation(self, method, path):
        return (self.path_item(path) or {}).get(method.lower())

    def request_schema(self, method, path):
        body = self.resolve((self.operation(method, path) or {}).get("requestBody"))
        media = (body.get("content") or {}).get("application/json")
        return (self.schema(media.get("schema")), bool(body.get("required"))) if media else (None, False)

    def response_schemas(self, method, path, success):
        out = []
        for status, response in ((self.operation(method, path) or {}).get("responses") or {}).items():
            if str(status).startswith("2") != success:
                continue
            media = (self.resolve(response).get("content") or {}).get("application/json")
            if media:
                out.append((str(status), self.schema(media.get("schema"))))
        return out

    @staticmethod
    def kind(schema):
        types = schema.get("type")
        types = types if isinstance(types, list) else [types] if types else []
        non_null = [t for t in types if t != "null"]
        return non_null[0] if non_null else ("object" if "properties" in schema else None)
