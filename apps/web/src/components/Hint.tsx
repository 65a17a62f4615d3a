import { cloneElement, type ReactElement, useId, useState } from 'react';

type Placement = 'top' | 'bottom' | 'bottom-start' | 'left';

/**
 * A tooltip shown while its trigger is hovered or has the focus (Escape hides it), in Bootstrap's
 * tooltip look and described to assistive technology (aria-describedby, role=tooltip). Placed by CSS
 * beside the trigger: the app's few hints sit where there is room, so they need no positioning engine
 * (react-bootstrap's OverlayTrigger loads Popper, 9 KB gzipped on every page with a hint).
 */
export function Hint({
  text,
  placement = 'top',
  block = false,
  children,
}: {
  text: string;
  placement?: Placement;
  /** The trigger is a block (a form line): the anchor is a div, not an inline span. */
  block?: boolean;
  children: ReactElement<{ 'aria-describedby'?: string }>;
}) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const Anchor = block ? 'div' : 'span';
  const side = placement === 'bottom-start' ? 'bottom' : placement === 'left' ? 'start' : placement;
  return (
    <Anchor
      className={`hint-anchor${block ? '' : ' d-inline-block'}`}
      onMouseEnter={() => setShown(true)}
      onMouseLeave={() => setShown(false)}
      onFocus={() => setShown(true)}
      onBlur={() => setShown(false)}
      onKeyDown={(event) => event.key === 'Escape' && setShown(false)}
    >
      {cloneElement(children, { 'aria-describedby': shown ? id : undefined })}
      {shown && (
        <span role="tooltip" id={id} className={`tooltip show bs-tooltip-${side} hint-${placement}`}>
          <span className="tooltip-arrow" />
          <span className="tooltip-inner">{text}</span>
        </span>
      )}
    </Anchor>
  );
}
