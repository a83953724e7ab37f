// An in-page question before something is thrown away (no window.confirm: it stays in the
// page, readable and keyboard-reachable; focus goes to the safe choice).
import { useEffect, useRef } from 'react';

export function ConfirmBar({
  question,
  yes,
  no,
  onYes,
  onNo,
}: {
  question: string;
  yes: string;
  no: string;
  onYes: () => void;
  onNo: () => void;
}) {
  const safe = useRef<HTMLButtonElement>(null);
  useEffect(() => safe.current?.focus(), []);
  return (
    <div className="ted-confirm" role="alertdialog" aria-label={question} data-testid="ted-confirm">
      <span>{question}</span>
      <button type="button" onClick={onYes} data-testid="ted-confirm-yes">
        {yes}
      </button>
      <button type="button" ref={safe} className="primary" onClick={onNo} data-testid="ted-confirm-no">
        {no}
      </button>
    </div>
  );
}
