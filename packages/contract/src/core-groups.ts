// Shapes of this area (filled in as the area is built).
export {};
