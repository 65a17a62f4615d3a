"""The outputs of a 2019 function filter, read from its code (legacy.py wraps the function in a class
declaring them).

Those filters declared nothing: the submission form named their streams and properties. Declared
here: every string literal passed to send_to_stream/tag/add_tag, set_property/set_locus_property, or
written with `<...>.properties['name'] = value` (directly or through a name bound to such a dict); a
stream name held in a variable is declared when the function binds that variable only to literals
(`stream = 'a' if x else 'b'; ld.send_to_stream(stream)`). A property's type comes from the value
written (str/f-string: str; int literal, len(), int(): int; otherwise float). What the code computes at
run time (a formatted name) is not declared, and writing it is an error.
"""
import ast

TAG_CALLS = ('send_to_stream', 'tag', 'add_tag')


def infer_outputs(source):
    """(tags, {locus property: type}, {alert property: type}) named as literals in the code (text or tree)."""
    tree = ast.parse(source) if isinstance(source, str) else source
    tags, locus_props, alert_props = [], {}, {}
    alert_dicts, locus_dicts = set(), set()
    for node in ast.walk(tree):  # names bound to a properties dict: p = locus.alert.properties
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            owner = _properties_owner(node.value)
            if owner:
                (alert_dicts if owner == 'alert' else locus_dicts).add(node.targets[0].id)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            name = _literal(node.args[0])
            if name is None:
                continue
            if node.func.attr in TAG_CALLS and name not in tags:
                tags.append(name)
            elif node.func.attr in ('set_property', 'set_locus_property') and len(node.args) > 1:
                target = alert_props if node.func.attr == 'set_property' else locus_props
                _record(target, name, node.args[1])
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                if not isinstance(target, ast.Subscript) or _literal(target.slice) is None:
                    continue
                owner = _properties_owner(target.value)
                if owner is None and isinstance(target.value, ast.Name):
                    owner = 'alert' if target.value.id in alert_dicts else 'locus' if target.value.id in locus_dicts else None
                if owner:
                    _record(alert_props if owner == 'alert' else locus_props, _literal(target.slice), node.value)
    for tag in _bound_stream_names(tree):
        if tag not in tags:
            tags.append(tag)
    return tags, locus_props, alert_props


def _bound_stream_names(tree):
    """Stream names passed through a variable that its function (or the module) binds to literals only."""
    names = []
    scopes = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope in scopes:
        bindings, unknown = {}, set()
        for node in ast.walk(scope):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        values = _literal_choices(node.value) if not isinstance(node, ast.AugAssign) else None
                        if values is None:
                            unknown.add(target.id)
                        else:
                            bindings.setdefault(target.id, []).extend(values)
        for node in ast.walk(scope):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in TAG_CALLS
                    and node.args and isinstance(node.args[0], ast.Name)):
                var = node.args[0].id
                if var in bindings and var not in unknown:
                    names.extend(v for v in bindings[var] if v not in names)
    return names


def _literal_choices(node):
    """The strings an expression can only be: a literal, or a conditional between such expressions."""
    if node is None:
        return None
    if _literal(node) is not None:
        return [_literal(node)]
    if isinstance(node, ast.IfExp):
        body, orelse = _literal_choices(node.body), _literal_choices(node.orelse)
        return body + orelse if body is not None and orelse is not None else None
    return None


def _properties_owner(node):
    """'alert' for <x>.alert.properties / <x>.get_properties(), 'locus' for <x>.properties, else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return {'get_properties': 'alert', 'get_locus_properties': 'locus'}.get(node.func.attr)
    if isinstance(node, ast.Attribute) and node.attr == 'properties':
        inner = node.value
        return 'alert' if isinstance(inner, ast.Attribute) and inner.attr == 'alert' else 'locus'
    return None


def _literal(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _record(target, name, value):
    kind = _kind(value)
    previous = target.get(name)
    target[name] = kind if previous in (None, kind) else ('str' if 'str' in (previous, kind) else 'float')


def _kind(node):
    if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return 'str'
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int)):
        return 'int'
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return {'str': 'str', 'int': 'int', 'len': 'int', 'bool': 'int'}.get(node.func.id, 'float')
    return 'float'
