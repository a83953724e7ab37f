// Classroom state around the simulation: the first visit's welcome, the prediction
// panel, a tour's score and the tour being printed.
import { useCallback, useState } from 'react';

export interface Score {
  tour: string;
  right: number;
  asked: number;
}

export function useClassroom() {
  const [welcome, setWelcome] = useState(false);
  const [predictOpen, setPredictOpen] = useState(false);
  const [printing, setPrinting] = useState<string | null>(null);
  const [score, setScore] = useState<Score>({ tour: '', right: 0, asked: 0 });
  const showWelcome = useCallback(() => setWelcome(true), []);
  /** A tour starts from the menu: a fresh score, no welcome. */
  const tourStarted = useCallback((id: string) => {
    setScore({ tour: id, right: 0, asked: 0 });
    setWelcome(false);
  }, []);
  const addScore = useCallback(
    (tour: string, right: number, asked: number) =>
      setScore((sc) =>
        sc.tour === tour ? { tour, right: sc.right + right, asked: sc.asked + asked } : { tour, right, asked },
      ),
    [],
  );
  return {
    welcome,
    setWelcome,
    showWelcome,
    predictOpen,
    setPredictOpen,
    printing,
    setPrinting,
    score,
    tourStarted,
    addScore,
  };
}

export type Classroom = ReturnType<typeof useClassroom>;
