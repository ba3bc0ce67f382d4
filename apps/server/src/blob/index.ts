export { BLOB_KEY, type BlobStore, checkBlobKey, newBlobKey } from './blob-store.ts';
export { DatabaseBlobStore } from './database-store.ts';
export { DirectoryBlobStore } from './directory-store.ts';
