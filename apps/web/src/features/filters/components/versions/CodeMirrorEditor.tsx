import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { python } from '@codemirror/lang-python';
import {
  bracketMatching,
  defaultHighlightStyle,
  HighlightStyle,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';

import { type Theme, useTheme } from '@/lib/theme';

export interface CodeMirrorEditorProps {
  value: string;
  onChange?: (value: string) => void;
  readOnly: boolean;
  label: string;
}

/** Python mode, tab size 4 (indenting by four spaces), line numbers. Loaded only by the version editor. */
export default function CodeMirrorEditor({ value, onChange, readOnly, label }: CodeMirrorEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const editable = useRef(new Compartment());
  const colours = useRef(new Compartment());
  const theme = useTheme();
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    const state = EditorState.create({
      doc: value,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        colours.current.of(colouring(theme)),
        python(),
        EditorState.tabSize.of(4),
        indentUnit.of('    '),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        editable.current.of(editability(readOnly)),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChangeRef.current?.(update.state.doc.toString());
        }),
      ],
    });
    view.current = new EditorView({ state, parent: host.current! });
    return () => {
      view.current?.destroy();
      view.current = null;
    };
    // The editor is made once; value and readOnly changes are dispatched below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: editable.current.reconfigure(editability(readOnly)) });
  }, [readOnly]);

  useEffect(() => {
    view.current?.dispatch({ effects: colours.current.reconfigure(colouring(theme)) });
  }, [theme]);

  useEffect(() => {
    const current = view.current;
    if (!current) return;
    const text = current.state.doc.toString();
    if (text !== value) current.dispatch({ changes: { from: 0, to: text.length, insert: value } });
  }, [value]);

  return <div ref={host} className="code-editor border rounded" data-testid="code-editor" data-readonly={readOnly} />;
}

function editability(readOnly: boolean) {
  return [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)];
}

/**
 * CodeMirror's default highlighting, its colours made light for the dark theme (the default ones are
 * dark inks that fail contrast on a dark page). Same tags, taken from the default style itself.
 */
const DARK_INKS: Record<string, string> = {
  '#404740': '#abb2bf',
  '#708': '#d7a4ef',
  '#219': '#d19a66',
  '#164': '#b5cea8',
  '#a11': '#e5a07c',
  '#e40': '#f78c6c',
  '#00f': '#61afef',
  '#30a': '#c8a2ff',
  '#085': '#4ec9b0',
  '#167': '#4ec9b0',
  '#256': '#56b6c2',
  '#00c': '#61afef',
  '#940': '#a8adb3',
  '#f00': '#ff6b6b',
};
const darkHighlightStyle = HighlightStyle.define(
  defaultHighlightStyle.specs.map((spec) => ({
    ...spec,
    color: typeof spec.color === 'string' ? (DARK_INKS[spec.color] ?? spec.color) : spec.color,
  })),
  { themeType: 'dark' },
);

function colouring(theme: Theme) {
  return theme === 'dark'
    ? [
        // A faint active line: CodeMirror's dark one is bright enough to take the inks below 4.5:1.
        EditorView.theme({ '.cm-activeLine': { backgroundColor: 'rgba(255, 255, 255, 0.05)' } }, { dark: true }),
        syntaxHighlighting(darkHighlightStyle),
      ]
    : [syntaxHighlighting(defaultHighlightStyle, { fallback: true })];
}
