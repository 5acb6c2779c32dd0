import { refusalMessage } from '../../../api/refusals';
import { useCommand } from '../../../api/use-command';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { useExportMyDataMutation } from '../api/account-api';
import { dataFileName, saveJson } from '../save-file';

export function DownloadMyData() {
  const [exportMyData, { isLoading, reset }] = useExportMyDataMutation();
  const { problem, done, run } = useCommand();

  async function download() {
    await run(
      async () => {
        const fileName = dataFileName();
        saveJson(fileName, await exportMyData().unwrap());
        reset();
        return fileName;
      },
      (fileName) => `Your data is saved as ${fileName}.`,
    );
  }

  return (
    <>
      <p className="account__data-contents">
        One JSON file with your account, your organizations and roles (and who changed them), your sessions, your
        sign-ins and failed tries, your other account events, your invitations, what your company’s directory says about
        you, and your two-step methods by name and date. It never holds your password or any other secret.
      </p>
      <FormAlert>{problem && refusalMessage(problem)}</FormAlert>
      <div className="form__actions">
        <Button type="button" variant="secondary" busy={isLoading} onClick={() => void download()}>
          Download my data
        </Button>
      </div>
      <p className="form__status" role="status">
        {done}
      </p>
    </>
  );
}
