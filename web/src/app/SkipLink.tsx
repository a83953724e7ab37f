// A keyboard user's way past the header's controls and the scenario form (WCAG 2.4.1
// "bypass blocks"): hidden until focused, the page's first Tab stop moves the keyboard to
// the view on screen (the chip's column, compare or the device), whose first control is
// Step. A button, not a `#fragment` link: the address bar's hash holds the app's route.
export function SkipLink() {
  const skip = () => {
    const main = Array.from(document.querySelectorAll<HTMLElement>('main')).find((m) => m.getClientRects().length);
    main?.focus();
  };
  return (
    <button type="button" className="skip-link" data-testid="skip-link" onClick={skip}>
      Skip to the simulation
    </button>
  );
}
