// Apart from the PostgreSQL adapter, so a server and the command line can name it without loading the driver.

/** An import into an empty log under way (store:copy, store:restore), which nothing but the import may open. */
export class UnfinishedImport extends Error {
  constructor(storeName: string) {
    super(
      `An import into ${storeName} (chorus store:copy or store:restore) has not finished: run the same command again to finish it, then start the servers`,
    );
    this.name = 'UnfinishedImport';
  }
}
