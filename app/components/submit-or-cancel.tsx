import { Link } from "react-router";

/** A form's primary button and the link that leaves it unsent (review, add to release). */
export function SubmitOrCancel({
  className,
  submit,
  cancel,
  cancelTo,
}: {
  className: string;
  submit: string;
  cancel: string;
  cancelTo: string;
}) {
  return (
    <div className={className}>
      <button type="submit" className="button primary">
        {submit}
      </button>
      <Link to={cancelTo} className="button">
        {cancel}
      </Link>
    </div>
  );
}
