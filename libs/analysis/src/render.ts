export * from '@checkpoints/render';
