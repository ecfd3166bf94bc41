import { useState, type DragEvent, type HTMLAttributes } from "react";

/**
 * Drag to reorder the rows of one list (with JavaScript; without it the rows' ↑ ↓ submit buttons do the same).
 * `rowProps(index)` goes on each row: a row dropped on another calls `onMove(from, to)`. Only a drag that began in
 * this list is taken, so a nested list's rows and a dragged file pass through. `className(index)` marks the row
 * being dragged ("dragging") and the one under it ("drop-target").
 */
export function useRowDrag(enabled: boolean, onMove: (from: number, to: number) => void) {
  const [from, setFrom] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const end = () => {
    setFrom(null);
    setOver(null);
  };
  const rowProps = (index: number): HTMLAttributes<HTMLElement> & { draggable: boolean } => ({
    draggable: enabled,
    onDragStart: (event: DragEvent<HTMLElement>) => {
      if (!enabled) return;
      event.stopPropagation();
      setFrom(index);
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", ""); // Firefox starts no drag without data
    },
    onDragOver: (event: DragEvent<HTMLElement>) => {
      if (from === null) return;
      event.preventDefault();
      if (over !== index) setOver(index);
    },
    onDrop: (event: DragEvent<HTMLElement>) => {
      if (from === null) return;
      event.preventDefault();
      event.stopPropagation();
      if (from !== index) onMove(from, index);
      end();
    },
    onDragEnd: end,
  });
  const className = (index: number): string | undefined =>
    from === index ? "dragging" : over === index && from !== null ? "drop-target" : undefined;
  return { rowProps, className };
}
