// Filled in by the devices-and-data work.
export {};
