describe('HealthController', () => {
  /** Whether requiring the controller (its decorators run as it loads) requires @nestjs/swagger. */
  function loadsSwagger(): boolean {
    let loaded = false;
    jest.isolateModules(() => {
      jest.doMock('@nestjs/swagger', () => {
        loaded = true;
        return jest.requireActual('@nestjs/swagger');
      });
      require('./health.controller');
    });
    return loaded;
  }

  it('does not load @nestjs/swagger, which terminus requires to document a probe unless told not to', () => {
    expect(loadsSwagger()).toBe(false);
  });
});
